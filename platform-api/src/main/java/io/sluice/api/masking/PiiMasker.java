package io.sluice.api.masking;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks personal numbers in text that is stored or logged: mainland-China mobile phones, resident
 * ID-card numbers (18 and 15 digits) and bank-card numbers (13–19 digits passing the Luhn check).
 * Digits may be grouped by spaces or dashes. The LLM is given the message as sent; only what is
 * kept gets this. Pure and thread-safe.
 *
 * <ul>
 *   <li>phone {@code 13812345678} → {@code 138****5678}</li>
 *   <li>ID card {@code 110101199003074512} → {@code 110***********4512}</li>
 *   <li>bank card {@code 6222 0202 0000 1234 567} → {@code ************4567} (last four kept)</li>
 * </ul>
 */
public final class PiiMasker {

    /** 18-digit ID (last may be X) with a plausible birth date, or the old 15-digit form. */
    private static final Pattern ID_CARD = Pattern.compile(
        "(?<![0-9A-Za-z])([1-9]\\d{5}(?:19|20)\\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\\d|3[01])\\d{3}[0-9Xx]"
            + "|[1-9]\\d{7}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\\d|3[01])\\d{3})(?![0-9A-Za-z])");
    /** 13–19 digits, optionally grouped by single spaces or dashes. */
    private static final Pattern CARD = Pattern.compile("(?<![\\d-])(\\d(?:[ -]?\\d){12,18})(?![\\d-])");
    /** Mobile: 1[3-9] + 9 digits, optional +86 / 0086 prefix, optional 3-4-4 grouping. */
    private static final Pattern PHONE = Pattern.compile(
        "(?<!\\d)((?:\\+?86[ -]?|0086[ -]?)?)(1[3-9]\\d)[ -]?(\\d{4})[ -]?(\\d{4})(?!\\d)");

    /** The fewest ASCII digits any of the three patterns needs (a mobile number: 11). */
    private static final int FEWEST_DIGITS = 11;

    public String mask(String text) {
        if (text == null || text.isEmpty() || digits(text) < FEWEST_DIGITS) {
            return text; // most messages and answers: no pattern can match, so none is run
        }
        String masked = replace(ID_CARD, text, m -> {
            String id = m.group(1);
            return id.substring(0, 3) + "*".repeat(id.length() - 7) + id.substring(id.length() - 4);
        });
        masked = replace(CARD, masked, m -> {
            String digits = m.group(1).replaceAll("[ -]", "");
            if (digits.length() < 13 || !luhn(digits) || isPhone(digits)) {
                return m.group(0);
            }
            return "*".repeat(digits.length() - 4) + digits.substring(digits.length() - 4);
        });
        return replace(PHONE, masked, m -> m.group(1) + m.group(2) + "****" + m.group(4));
    }

    private static int digits(String text) {
        int count = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                count++;
            }
        }
        return count;
    }

    private static boolean isPhone(String digits) {
        return digits.length() == 13 && digits.startsWith("86");
    }

    static boolean luhn(String digits) {
        int sum = 0;
        boolean doubleIt = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (doubleIt) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            doubleIt = !doubleIt;
        }
        return sum % 10 == 0;
    }

    private static String replace(Pattern pattern, String text, java.util.function.Function<Matcher, String> with) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        do {
            matcher.appendReplacement(out, Matcher.quoteReplacement(with.apply(matcher)));
        } while (matcher.find());
        matcher.appendTail(out);
        return out.toString();
    }
}
