package io.sluice.api.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import io.sluice.knowledge.text.TextNormalizer;

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
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
