package io.sluice.api.cache;

import java.util.List;
import java.util.regex.Pattern;

import io.sluice.api.masking.PiiMasker;

/**
 * Which turns may be cached (and served from the cache): standalone, single-intent, impersonal.
 * A follow-up that leans on earlier turns ("那运费呢？", "what about that one?") means something
 * different in every session; two questions in one message are two intents; a message with a phone,
 * ID or card number is about one person.
 */
public final class TurnEligibility {

    private static final Pattern MULTI = Pattern.compile(
        "[?？].*\\S.*[?？]|另外|还有|顺便|以及|\\band also\\b|\\balso,|\\bplus\\b|[;；]");
    private static final Pattern ANAPHORA = Pattern.compile(
        "^(那|那么|还有|然后|所以)|这个|那个|这件|那件|它|上面|刚才|之前说|呢[?？]?$|\\b(it|that|this|those|them|then)\\b",
        Pattern.CASE_INSENSITIVE);

    private final PiiMasker masker;
    private final int maxChars;

    public TurnEligibility(PiiMasker masker, int maxChars) {
        this.masker = masker;
        this.maxChars = maxChars;
    }

    /** Why the message may not be cached, or null if it may. */
    public String refusal(String message, List<?> earlierTurns) {
        String text = message.strip();
        if (text.isEmpty() || text.length() > maxChars) {
            return "length";
        }
        if (MULTI.matcher(text).find()) {
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
