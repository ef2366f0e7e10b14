package io.sluice.api.cache;

import io.sluice.knowledge.text.TextNormalizer;
import io.sluice.web.text.Sha256;

/** Normalized question text: the L1 (exact) key ignores case, width, script variant, spaces and punctuation. */
public final class QuestionText {

    private QuestionText() {
    }

    /** The embedding front's normalisation (case, width, Traditional → Simplified), letters and digits only. */
    public static String normalize(String text) {
        return TextNormalizer.matchKey(text);
    }

    /** A short stable hash for Redis keys (hex of the first 12 bytes of SHA-256). */
    public static String hash(String text) {
        return Sha256.hex(text, 12);
    }
}
