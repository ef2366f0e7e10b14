package io.sluice.knowledge.text;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.Transliterator;
import com.ibm.icu.text.UnicodeSet;

/**
 * The one text normalisation in front of every embedding and every lexical comparison (cache keys,
 * verifier features, intent rules): Unicode NFKC with case folding (full-width → half-width, "Refund" →
 * "refund", ligatures and compatibility forms unfolded), Traditional Chinese → Simplified, white space
 * collapsed. Meaning-bearing characters (digits, negations, punctuation that separates clauses) are kept.
 *
 * <p>Why: the shipped BGE model's vocabulary is lower-case, so capitalised English words became unknown
 * tokens ("Cancel my order" and "Track my order" embedded to the same vector), and Traditional-script
 * questions missed Simplified entries and rules. ICU4J (Unicode licence) does both conversions; its
 * transliterators are stateless and shared across threads.
 */
public final class TextNormalizer {

    private static final Normalizer2 NFKC_CASEFOLD = Normalizer2.getNFKCCasefoldInstance();
    private static final Transliterator TRADITIONAL_TO_SIMPLIFIED = Transliterator.getInstance("Traditional-Simplified");
    // every character the conversion may change (ICU's own, conservative): Simplified text holds none of
    // them, and skipping the transliterator for it saves most of what normalising a message costs
    private static final UnicodeSet TRADITIONAL = TRADITIONAL_TO_SIMPLIFIED.getSourceSet().freeze();

    // one message is normalised by several steps of a request (cache key, rules, embedder, FAQ keywords):
    // the conversion is pure, so recent results are kept (bounded; long texts such as documents are not)
    private static final int MEMO_ENTRIES = 4096;
    private static final int MEMO_MAX_CHARS = 1024;
    private static final Map<String, String> MEMO = new ConcurrentHashMap<>();

    private TextNormalizer() {
    }

    /** NFKC case fold, Traditional → Simplified, white space collapsed and trimmed; null → "". */
    public static String normalize(String text) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        if (text.length() > MEMO_MAX_CHARS) {
            return convert(text);
        }
        String known = MEMO.get(text);
        if (known != null) {
            return known;
        }
        String normalized = convert(text);
        if (MEMO.size() >= MEMO_ENTRIES) {
            MEMO.clear();
        }
        MEMO.put(text, normalized);
        return normalized;
    }

    private static String convert(String text) {
        String folded = NFKC_CASEFOLD.normalize(text);
        if (hasHan(folded) && !TRADITIONAL.containsNone(folded)) {
            folded = TRADITIONAL_TO_SIMPLIFIED.transliterate(folded);
        }
        return collapseWhitespace(folded);
    }

    /**
     * The exact-match key of a question: {@link #normalize} with only letters and digits kept, so "退货 运费？"
     * and "退貨運費" share one key.
     */
    public static String matchKey(String text) {
        String normalized = normalize(text);
        StringBuilder out = new StringBuilder(normalized.length());
        normalized.codePoints().filter(Character::isLetterOrDigit).forEach(out::appendCodePoint);
        return out.toString();
    }

    private static boolean hasHan(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN) {
                return true;
            }
            i += Character.charCount(cp);
        }
        return false;
    }

    private static String collapseWhitespace(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
                space = out.length() > 0;
            } else {
                if (space) {
                    out.append(' ');
                    space = false;
                }
                out.appendCodePoint(cp);
            }
        }
        return out.toString();
    }
}
