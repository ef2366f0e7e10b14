package io.sluice.api.auth;

import java.security.SecureRandom;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.sluice.web.text.Sha256;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Creates, checks, changes and revokes API clients and their keys. Keys are random 256-bit secrets
 * ({@code sk-sluice-…}); only their SHA-256 hash and a short prefix are stored, with the client's tier
 * and scopes. Lookups are cached briefly so a request costs no database round trip: known keys in one
 * cache, unknown keys in a separate, bounded one (a flood of random keys can fill only the second, never
 * push valid keys out). A change made elsewhere takes effect within the cache TTL, one made here at once.
 */
public class ApiKeys {

    static final String KEY_PREFIX = "sk-sluice-";
    static final int SHOWN_PREFIX_CHARS = 14;
    static final int MAX_KEY_CHARS = 200;
    private static final int MAX_CACHED = 10_000;
    private static final int MAX_CACHED_UNKNOWN = 10_000;
    private static final String COLUMNS = "id, name, key_prefix, tier, scopes, created_at, revoked_at";

    private final JdbcClient jdbc;
    private final long cacheTtlNanos;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Cached> known = new ConcurrentHashMap<>();
    /** Unknown key hashes, oldest first; evicts its own oldest entry when full (access is synchronized). */
    private final Map<String, Long> unknown = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > MAX_CACHED_UNKNOWN;
        }
    };

    private record Cached(ApiClient client, long expiresAt) {
    }

    /** A client as administrators see it (never its key). */
    public record ClientRecord(long id, String name, String keyPrefix, ClientTier tier, Set<ApiScope> scopes,
            OffsetDateTime createdAt, OffsetDateTime revokedAt) {
        public boolean revoked() {
            return revokedAt != null;
        }

        /** The scopes as their names, sorted (for the console and the API). */
        public Set<String> scopeNames() {
            return ApiScope.wire(scopes);
        }
    }

    public ApiKeys(JdbcClient jdbc, Duration cacheTtl) {
        this.jdbc = jdbc;
        this.cacheTtlNanos = cacheTtl.toNanos();
    }

    /** Creates a client with the demo's scopes (chat + openai) and a new random key. */
    public IssuedKey create(String name, ClientTier tier) {
        return create(name, tier, ApiScope.DEMO);
    }

    /** Creates a client with a new random key; the key is in the result and nowhere else. */
    public IssuedKey create(String name, ClientTier tier, Set<ApiScope> scopes) {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        return createWithKey(name, tier, KEY_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret),
            scopes);
    }

    /** Creates a client with the demo's scopes for a key chosen by the operator (for instance from the environment). */
    public IssuedKey createWithKey(String name, ClientTier tier, String key) {
        return createWithKey(name, tier, key, ApiScope.DEMO);
    }

    /** Creates a client for a key chosen by the operator. */
    public IssuedKey createWithKey(String name, ClientTier tier, String key, Set<ApiScope> scopes) {
        if (key == null || key.length() < 20 || key.length() > MAX_KEY_CHARS) {
            throw new IllegalArgumentException("an API key must be 20-" + MAX_KEY_CHARS + " characters");
        }
        if (scopes == null || scopes.isEmpty()) {
            throw new IllegalArgumentException("a client needs at least one scope; known scopes: " + ApiScope.wireNames());
        }
        String prefix = key.substring(0, Math.min(SHOWN_PREFIX_CHARS, key.length()));
        long id = jdbc.sql("""
                INSERT INTO api_client (name, key_prefix, key_hash, tier, scopes)
                VALUES (?, ?, ?, ?, CAST(? AS TEXT[])) RETURNING id""")
            .params(name, prefix, sha256(key), tier.name(), arrayLiteral(scopes))
            .query(Long.class)
            .single();
        forgetAll();
        return new IssuedKey(new ApiClient(id, name, prefix, tier, scopes), key);
    }

    /** The client of a key looked up within the cache TTL, without asking the database. */
    public Optional<ApiClient> known(String key) {
        if (key == null || key.isBlank() || key.length() > MAX_KEY_CHARS) {
            return Optional.empty();
        }
        Cached cached = known.get(sha256(key));
        return cached != null && System.nanoTime() - cached.expiresAt() < 0 ? Optional.of(cached.client()) : Optional.empty();
    }

    /** The live (not revoked) client holding this key. */
    public Optional<ApiClient> authenticate(String key) {
        if (key == null || key.isBlank() || key.length() > MAX_KEY_CHARS) {
            return Optional.empty();
        }
        String hash = sha256(key);
        long now = System.nanoTime();
        Cached cached = known.get(hash);
        if (cached != null && now - cached.expiresAt() < 0) {
            return Optional.of(cached.client());
        }
        synchronized (unknown) {
            Long until = unknown.get(hash);
            if (until != null && now - until < 0) {
                return Optional.empty();
            }
        }
        ApiClient client = jdbc.sql("SELECT " + COLUMNS + " FROM api_client WHERE key_hash = ? AND revoked_at IS NULL")
            .param(hash)
            .query((rs, row) -> toRecord(rs))
            .optional()
            .map(r -> new ApiClient(r.id(), r.name(), r.keyPrefix(), r.tier(), r.scopes()))
            .orElse(null);
        if (client == null) {
            synchronized (unknown) {
                unknown.put(hash, now + cacheTtlNanos);
            }
            return Optional.empty();
        }
        if (known.size() >= MAX_CACHED) {
            known.clear(); // only valid keys get here: a flood of unknown keys cannot cause this
        }
        known.put(hash, new Cached(client, now + cacheTtlNanos));
        return Optional.of(client);
    }

    /** Revokes a client's key; effective here at once, on other instances within the cache TTL. */
    public boolean revoke(long clientId) {
        int changed = jdbc.sql("UPDATE api_client SET revoked_at = now() WHERE id = ? AND revoked_at IS NULL")
            .param(clientId)
            .update();
        forgetAll();
        return changed > 0;
    }

    /**
     * Sets a live client's tier.
     *
     * @throws IllegalArgumentException when there is no such client or it is revoked
     */
    public ClientRecord setTier(long clientId, ClientTier tier) {
        return change(clientId, "UPDATE api_client SET tier = ? WHERE id = ? AND revoked_at IS NULL", tier.name());
    }

    /**
     * Sets a live client's scopes.
     *
     * @throws IllegalArgumentException when there is no such client, it is revoked or no scope is given
     */
    public ClientRecord setScopes(long clientId, Set<ApiScope> scopes) {
        if (scopes == null || scopes.isEmpty()) {
            throw new IllegalArgumentException("a client needs at least one scope; known scopes: " + ApiScope.wireNames());
        }
        return change(clientId, "UPDATE api_client SET scopes = CAST(? AS TEXT[]) WHERE id = ? AND revoked_at IS NULL",
            arrayLiteral(scopes));
    }

    private ClientRecord change(long clientId, String sql, String value) {
        ClientRecord before = find(clientId).orElseThrow(() -> new IllegalArgumentException("no API client " + clientId));
        if (before.revoked()) {
            throw new IllegalArgumentException("client " + clientId + " is revoked; its settings cannot change");
        }
        int changed = jdbc.sql(sql).params(value, clientId).update();
        forgetAll();
        if (changed == 0) {
            throw new IllegalArgumentException("client " + clientId + " is revoked; its settings cannot change");
        }
        return before;
    }

    public Optional<ClientRecord> find(long clientId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM api_client WHERE id = ?")
            .param(clientId)
            .query((rs, row) -> toRecord(rs))
            .optional();
    }

    /** Every client, live ones first, newest first (at most 500). */
    public List<ClientRecord> all() {
        return jdbc.sql("SELECT " + COLUMNS + " FROM api_client ORDER BY revoked_at IS NOT NULL, id DESC LIMIT 500")
            .query((rs, row) -> toRecord(rs))
            .list();
    }

    /** Whether a client of this name exists (revoked or not). */
    public Optional<String> prefixOf(String name) {
        return jdbc.sql("SELECT key_prefix FROM api_client WHERE name = ? ORDER BY id LIMIT 1")
            .param(name)
            .query(String.class)
            .optional();
    }

    private void forgetAll() {
        known.clear();
        synchronized (unknown) {
            unknown.clear();
        }
    }

    private static ClientRecord toRecord(ResultSet rs) throws SQLException {
        return new ClientRecord(rs.getLong("id"), rs.getString("name"), rs.getString("key_prefix"),
            ClientTier.valueOf(rs.getString("tier")), scopes(rs.getArray("scopes")),
            rs.getObject("created_at", OffsetDateTime.class), rs.getObject("revoked_at", OffsetDateTime.class));
    }

    /** Stored scope names the code no longer knows are ignored (never widened). */
    private static Set<ApiScope> scopes(Array array) throws SQLException {
        Set<ApiScope> scopes = EnumSet.noneOf(ApiScope.class);
        if (array != null) {
            for (Object name : (Object[]) array.getArray()) {
                ApiScope.fromWire(String.valueOf(name)).ifPresent(scopes::add);
            }
        }
        return scopes;
    }

    /** A PostgreSQL array literal of scope names (only enum names: nothing to escape). */
    private static String arrayLiteral(Set<ApiScope> scopes) {
        return scopes.stream().map(ApiScope::wire).sorted().collect(Collectors.joining(",", "{", "}"));
    }

    static String sha256(String key) {
        return Sha256.hex(key, 32);
    }
}
