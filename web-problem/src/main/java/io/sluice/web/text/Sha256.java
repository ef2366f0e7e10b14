package io.sluice.web.text;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 of a text (its UTF-8 bytes) for the hashes taken on every request: API keys, users' Redis keys, cache keys.
 * Each use clones one digest made once; {@code MessageDigest.getInstance} looked the provider up and checked the
 * algorithm constraints on every call (1.5 % of a {@code /v1} call's CPU in JFR for the API key alone).
 */
public final class Sha256 {

    private static final MessageDigest PROTOTYPE = newDigest();

    private Sha256() {
    }

    /** The 32-byte digest of the text's UTF-8 bytes. */
    public static byte[] digest(String text) {
        return fresh().digest(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Hex of the first {@code bytes} bytes of the digest (all 32 for the whole of it). */
    public static String hex(String text, int bytes) {
        return HexFormat.of().formatHex(digest(text), 0, bytes);
    }

    private static MessageDigest fresh() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return newDigest();
        }
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always present", e);
        }
    }
}
