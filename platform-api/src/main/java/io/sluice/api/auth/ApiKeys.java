package io.sluice.api.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Creates, checks and revokes API keys. Keys are random 256-bit secrets ({@code sk-sluice-…});
 * only their SHA-256 hash and a short prefix are stored. Lookups are cached briefly (positive and
 * negative) so a request costs no database round trip; a revocation made elsewhere takes effect
 * within the cache TTL, one made here at once.
 */
public class ApiKeys {

    static final String KEY_PREFIX = "sk-sluice-";
    static final int SHOWN_PREFIX_CHARS = 14;
    private static final int MAX_CACHED = 10_000;

    private final JdbcClient jdbc;
    private final long cacheTtlNanos;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    private record Cached(ApiClient client, long expiresAt) {
    }

    public ApiKeys(JdbcClient jdbc, Duration cacheTtl) {
        this.jdbc = jdbc;
        this.cacheTtlNanos = cacheTtl.toNanos();
    }

    /** Creates a client with a new random key; the key is in the result and nowhere else. */
    public IssuedKey create(String name, ClientTier tier) {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        return createWithKey(name, tier, KEY_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    }

    /** Creates a client for a key chosen by the operator (for instance from the environment). */
    public IssuedKey createWithKey(String name, ClientTier tier, String key) {
        if (key == null || key.length() < 20) {
            throw new IllegalArgumentException("an API key must be at least 20 characters");
        }
        String prefix = key.substring(0, Math.min(SHOWN_PREFIX_CHARS, key.length()));
        long id = jdbc.sql("INSERT INTO api_client (name, key_prefix, key_hash, tier) VALUES (?, ?, ?, ?) RETURNING id")
            .params(name, prefix, sha256(key), tier.name())
            .query(Long.class)
            .single();
        cache.clear();
        return new IssuedKey(new ApiClient(id, name, prefix, tier), key);
    }

    /** The live (not revoked) client holding this key. */
    public Optional<ApiClient> authenticate(String key) {
        if (key == null || key.isBlank() || key.length() > 200) {
            return Optional.empty();
        }
        String hash = sha256(key);
        long now = System.nanoTime();
        Cached cached = cache.get(hash);
        if (cached != null && now - cached.expiresAt() < 0) {
            return Optional.ofNullable(cached.client());
        }
        ApiClient client = jdbc.sql("""
                SELECT id, name, key_prefix, tier FROM api_client WHERE key_hash = ? AND revoked_at IS NULL""")
            .param(hash)
            .query((rs, row) -> new ApiClient(rs.getLong("id"), rs.getString("name"), rs.getString("key_prefix"),
                ClientTier.valueOf(rs.getString("tier"))))
            .optional()
            .orElse(null);
        if (cache.size() >= MAX_CACHED) {
            cache.clear();
        }
        cache.put(hash, new Cached(client, now + cacheTtlNanos));
        return Optional.ofNullable(client);
    }

    /** Revokes a client's key; effective here at once, on other instances within the cache TTL. */
    public boolean revoke(long clientId) {
        int changed = jdbc.sql("UPDATE api_client SET revoked_at = now() WHERE id = ? AND revoked_at IS NULL")
            .param(clientId)
            .update();
        cache.clear();
        return changed > 0;
    }

    /** Whether a client of this name exists (revoked or not). */
    public Optional<String> prefixOf(String name) {
        return jdbc.sql("SELECT key_prefix FROM api_client WHERE name = ? ORDER BY id LIMIT 1")
            .param(name)
            .query(String.class)
            .optional();
    }

    static String sha256(String key) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always present", e);
        }
    }
}
