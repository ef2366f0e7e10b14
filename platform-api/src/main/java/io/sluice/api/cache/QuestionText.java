package io.sluice.api.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.HexFormat;
import java.util.Locale;

/** Normalized question text: the L1 (exact) key ignores case, width, spaces and punctuation. */
public final class QuestionText {

    private QuestionText() {
    }

    /** NFKC (full-width → half-width), lower case, letters and digits only. */
    public static String normalize(String text) {
        String nfkc = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(nfkc.length());
        nfkc.codePoints().filter(Character::isLetterOrDigit).forEach(out::appendCodePoint);
        return out.toString();
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
