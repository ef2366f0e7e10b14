package io.sluice.api.ingress;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * VIP as an attribute of one end user of a client (table {@code end_user_vip}, migration V120), besides the
 * client's own tier: a VIP end user gets the VIP bucket, the VIP share of admission and the VIP LLM-call
 * limit even when their client is STANDARD. End users are who the client says they are: the chat's
 * {@code userId} (the /v1 {@code user}).
 *
 * <p>Each instance keeps a client's VIP users in memory, and once per {@code cacheTtl} reads one row to know
 * they still hold: {@code end_user_vip_version} (V640), which every change raises in the same statement. A
 * change is in force on this instance at once and on every other within {@code cacheTtl}; a request costs no
 * database round trip however many end users a client has (a lookup per user and TTL cost one per new user,
 * which on a thousand users was a fifth of all calls). A client with more than {@code MAX_LISTED} VIP users is
 * asked per user instead, and those answers too hold until its version moves.
 */
public class EndUserVip {

    /** Longest user id stored (as the chat API accepts). */
    public static final int MAX_USER_ID_CHARS = 128;
    /** The most VIP users of one client kept as a set; past it, users are looked up one by one. */
    static final int MAX_LISTED = 10_000;
    private static final int MAX_CACHED = 100_000;
    /** Version of a client whose VIP users could not be read: the next check reads them again. */
    private static final long UNREAD = -1;
    private static final String RAISE_VERSION = """
        INSERT INTO end_user_vip_version (client_id, version) SELECT client_id, 1 FROM changed
        ON CONFLICT (client_id) DO UPDATE SET version = end_user_vip_version.version + 1""";

    /**
     * What this instance knows of one client's VIP users as of {@code version}, checked again after {@code until}.
     * {@code users} is null when the client has more than {@link #MAX_LISTED}: then {@code perUser} holds the
     * answers read so far.
     */
    private record Known(long version, Set<String> users, Map<String, Boolean> perUser, long until) {
        /** The same users, taken to hold as of {@code asOf} until {@code next}. */
        Known checked(long asOf, long next) {
            return new Known(asOf, users, perUser, next);
        }
    }

    private final JdbcClient jdbc;
    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final Map<Long, Known> clients = new ConcurrentHashMap<>();
    private final Set<Long> refreshing = ConcurrentHashMap.newKeySet();

    public EndUserVip(JdbcClient jdbc, Duration cacheTtl) {
        this(jdbc, cacheTtl, System::nanoTime);
    }

    EndUserVip(JdbcClient jdbc, Duration cacheTtl, LongSupplier nanoTime) {
        this.jdbc = jdbc;
        this.ttlNanos = cacheTtl.toNanos();
        this.nanoTime = nanoTime;
    }

    /** Whether this client marked this end user VIP (false when the database cannot say: never fail the request). */
    public boolean isVip(long clientId, String userId) {
        if (userId == null || userId.isBlank()) {
            return false;
        }
        long now = nanoTime.getAsLong();
        Known known = clients.get(clientId);
        // when a check is due, one request reads while the client's others keep the users they had (as KeyBudgets)
        if (known == null) {
            known = refresh(clientId, null, now);
        } else if (known.until() - now <= 0 && refreshing.add(clientId)) {
            try {
                known = refresh(clientId, known, now);
            } finally {
                refreshing.remove(clientId);
            }
        }
        if (known.users() != null) {
            return known.users().contains(userId);
        }
        Boolean answer = known.perUser().get(userId);
        if (answer != null) {
            return answer;
        }
        try {
            boolean vip = isVipUncached(clientId, userId);
            if (known.perUser().size() >= MAX_CACHED) {
                known.perUser().clear();
            }
            known.perUser().put(userId, vip);
            return vip;
        } catch (RuntimeException e) {
            return false;                         // standard until the database answers
        }
    }

    /** Reads the client's version; its VIP users again only when it moved (or were never read). */
    private Known refresh(long clientId, Known known, long now) {
        long next = now + ttlNanos;
        Known checked;
        try {
            long version = jdbc.sql("SELECT version FROM end_user_vip_version WHERE client_id = ?").param(clientId)
                .query(Long.class).optional().orElse(0L);
            if (known != null && known.version() == version) {
                checked = known.checked(version, next);
            } else {
                // read after the version: a change between the two reads makes the next check read them again
                List<String> users = jdbc.sql("SELECT user_id FROM end_user_vip WHERE client_id = ? LIMIT ?")
                    .params(clientId, MAX_LISTED + 1).query(String.class).list();
                checked = users.size() > MAX_LISTED
                    ? new Known(version, null, new ConcurrentHashMap<>(), next)
                    : new Known(version, Set.copyOf(users), Map.of(), next);
            }
        } catch (RuntimeException e) {
            // the database cannot say: the last known users (else none) until the next check, not a failed read per request
            checked = known != null ? known.checked(UNREAD, next) : new Known(UNREAD, Set.of(), Map.of(), next);
        }
        clients.put(clientId, checked);
        return checked;
    }

    /**
     * Marks or unmarks one end user as VIP.
     *
     * @return whether the user was VIP before
     * @throws IllegalArgumentException for an empty, too long or control-character user id
     */
    public boolean set(long clientId, String userId, boolean vip, String actor) {
        check(userId);
        // the change and its version in one statement: a row changed is a version moved, on every instance
        int changed = vip
            ? jdbc.sql("""
                WITH changed AS (INSERT INTO end_user_vip (client_id, user_id, created_by) VALUES (?, ?, ?)
                                 ON CONFLICT DO NOTHING RETURNING client_id)
                """ + RAISE_VERSION).params(clientId, userId, actor).update()
            : jdbc.sql("""
                WITH changed AS (DELETE FROM end_user_vip WHERE client_id = ? AND user_id = ? RETURNING client_id)
                """ + RAISE_VERSION).params(clientId, userId).update();
        clients.remove(clientId);
        // inserted means it was not there; deleted means it was; nothing changed means it already was what is asked
        return changed == 1 ? !vip : vip;
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
