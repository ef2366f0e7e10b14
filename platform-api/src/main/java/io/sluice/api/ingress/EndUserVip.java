package io.sluice.api.ingress;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * VIP as an attribute of one end user of a client (table {@code end_user_vip}, migration V120), besides the
 * client's own tier: a VIP end user gets the VIP bucket, the VIP share of admission and the VIP LLM-call
 * limit even when their client is STANDARD. End users are who the client says they are: the chat's
 * {@code userId} (the /v1 {@code user}). Looked up per request from a short cache, so a change is in force
 * on every instance within {@code cacheTtl}.
 */
public class EndUserVip {

    /** Longest user id stored (as the chat API accepts). */
    public static final int MAX_USER_ID_CHARS = 128;
    private static final int MAX_CACHED = 100_000;

    private record Cached(boolean vip, long until) {
    }

    private final JdbcClient jdbc;
    private final long ttlNanos;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    public EndUserVip(JdbcClient jdbc, Duration cacheTtl) {
        this.jdbc = jdbc;
        this.ttlNanos = cacheTtl.toNanos();
    }

    /** Whether this client marked this end user VIP (false when the database cannot say: never fail the request). */
    public boolean isVip(long clientId, String userId) {
        if (userId == null || userId.isBlank()) {
            return false;
        }
        String key = clientId + ":" + userId;
        long now = System.nanoTime();
        Cached hit = cache.get(key);
        if (hit != null && hit.until - now > 0) {
            return hit.vip;
        }
        boolean vip;
        try {
            vip = jdbc.sql("SELECT count(*) FROM end_user_vip WHERE client_id = ? AND user_id = ?")
                .params(clientId, userId).query(Long.class).single() > 0;
        } catch (RuntimeException e) {
            return hit != null && hit.vip;      // the last known answer, else standard
        }
        if (cache.size() > MAX_CACHED) {
            cache.clear();
        }
        cache.put(key, new Cached(vip, now + ttlNanos));
        return vip;
    }

    /**
     * Marks or unmarks one end user as VIP.
     *
     * @return whether the user was VIP before
     * @throws IllegalArgumentException for an empty, too long or control-character user id
     */
    public boolean set(long clientId, String userId, boolean vip, String actor) {
        check(userId);
        boolean before = isVipUncached(clientId, userId);
        if (vip) {
            jdbc.sql("INSERT INTO end_user_vip (client_id, user_id, created_by) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
                .params(clientId, userId, actor).update();
        } else {
            jdbc.sql("DELETE FROM end_user_vip WHERE client_id = ? AND user_id = ?").params(clientId, userId).update();
        }
        cache.remove(clientId + ":" + userId);
        return before;
    }

    /** The client's VIP end users, oldest first (at most {@code limit}). */
    public List<String> list(long clientId, int limit) {
        return jdbc.sql("SELECT user_id FROM end_user_vip WHERE client_id = ? ORDER BY created_at, user_id LIMIT ?")
            .params(clientId, limit).query(String.class).list();
    }

    private boolean isVipUncached(long clientId, String userId) {
        return jdbc.sql("SELECT count(*) FROM end_user_vip WHERE client_id = ? AND user_id = ?")
            .params(clientId, userId).query(Long.class).single() > 0;
    }

    static void check(String userId) {
        if (userId == null || userId.isBlank()) {
            throw new IllegalArgumentException("a user id is required");
        }
        if (userId.length() > MAX_USER_ID_CHARS) {
            throw new IllegalArgumentException("a user id has at most " + MAX_USER_ID_CHARS + " characters");
        }
        if (userId.codePoints().anyMatch(c -> Character.isISOControl(c) || c == 0x2028 || c == 0x2029)) {
            throw new IllegalArgumentException("a user id must not contain control characters");
        }
    }
}
