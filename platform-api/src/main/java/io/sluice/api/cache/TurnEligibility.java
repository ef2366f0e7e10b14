package io.sluice.api.cache;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sluice.api.masking.PiiMasker;

/**
 * Which turns may be cached (and served from the cache): standalone, single-intent, impersonal.
 * A follow-up that leans on earlier turns ("那运费呢？", "what about that one?") means something
 * different in every session; two questions in one message are two intents; a message with a phone,
 * ID or card number is about one person.
 */
public final class TurnEligibility {

    // two questions for sure: two question marks with text between, or clauses joined by a semicolon
    private static final Pattern MULTI = Pattern.compile("[?？].*\\S.*[?？]|[;；]");
    // a connector that may start a second question ("退货要多久？另外运费谁出") — or may not: "还有货吗"
    // (is it still in stock), "另外一张卡怎么激活" (the other card), "Can I also pay by card?"
    private static final Pattern CONNECTOR = Pattern.compile(
        "另外|还有|顺便|以及|\\band also\\b|\\balso,|\\bplus\\b|\\banother question\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern QUESTION = Pattern.compile(
        "[?？吗呢]|怎么|怎样|如何|多久|多少|什么|哪|谁|几|能否|可以|是否|为什么|"
            + "\\b(how|what|when|where|why|which|who|can|could|do|does|is|are|will)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern ANAPHORA = Pattern.compile(
        "^(那|那么|还有|然后|所以)|这个|那个|这件|那件|它|上面|刚才|之前说|呢[?？]?$|\\b(it|that|this|those|them|then)\\b",
        Pattern.CASE_INSENSITIVE);

    private final PiiMasker masker;
    private final int maxChars;

    public TurnEligibility(PiiMasker masker, int maxChars) {
        this.masker = masker;
        this.maxChars = maxChars;
    }

    /**
     * Whether the message asks two things: a connector (另外, 还有, also, ...) counts only between two
     * parts that each ask something, so a single question that merely contains the word stays cacheable.
     */
    static boolean twoQuestions(String text) {
        if (MULTI.matcher(text).find()) {
            return true;
        }
        Matcher connector = CONNECTOR.matcher(text);
        while (connector.find()) {
            String before = text.substring(0, connector.start());
            String after = text.substring(connector.end());
            // the part before is a clause of its own: it asks something, or ends at a clause break
            boolean clauseBefore = QUESTION.matcher(before).find() || before.strip().matches("(?s).*[，,。.!！]$");
            if (before.strip().length() >= 3 && after.strip().length() >= 3 && clauseBefore
                    && QUESTION.matcher(after).find()) {
                return true;
            }
        }
        return false;
    }

    /** Why the message may not be cached, or null if it may. */
    public String refusal(String message, List<?> earlierTurns) {
        String text = message.strip();
        if (text.isEmpty() || text.length() > maxChars) {
            return "length";
        }
        if (twoQuestions(text)) {
            return "multi_intent";
        }
        if (!earlierTurns.isEmpty() && (text.length() < 6 || ANAPHORA.matcher(text).find())) {
            return "follow_up";
        }
        if (!masker.mask(text).equals(text)) {
            return "personal_data";
        }
        return null;
    }
}
