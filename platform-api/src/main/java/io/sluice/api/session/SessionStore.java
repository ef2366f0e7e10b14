package io.sluice.api.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.redisson.api.RBatch;
import org.redisson.api.RBucket;
import org.redisson.api.RList;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

import tools.jackson.databind.ObjectMapper;

/**
 * Sessions: the last turns in Redis (TTL, trimmed to {@code maxTurns}) in front of PostgreSQL, which
 * has every message. A session continues only for the client and user that own it. Redis trouble
 * never fails a request: the owner check and the turns fall back to PostgreSQL, appends are skipped
 * (counted in {@code sluice.session.redis.failures}).
 */
public class SessionStore {

    private static final Logger log = LoggerFactory.getLogger(SessionStore.class);

    private final RedissonClient redisson;
    private final JdbcClient jdbc;
    private final ObjectMapper json;
    private final SessionProperties properties;
    private final Counter redisFailures;

    public SessionStore(RedissonClient redisson, JdbcClient jdbc, ObjectMapper json, SessionProperties properties,
            MeterRegistry meters) {
        this.redisson = redisson;
        this.jdbc = jdbc;
        this.json = json;
        this.properties = properties;
        this.redisFailures = Counter.builder("sluice.session.redis.failures")
            .description("session reads/writes that fell back to PostgreSQL or were skipped because Redis failed")
            .register(meters);
    }

    /** Continues the requested session if this client's user owns it; otherwise starts a new one. */
    public SessionContext open(UUID requested, long clientId, String userId) {
        if (requested == null) {
            return SessionContext.fresh();
        }
        String owner = owner(clientId, userId);
        try {
            String cachedOwner = ownerKey(requested).get();
            if (cachedOwner != null) {
                if (!cachedOwner.equals(owner)) {
                    return SessionContext.fresh();
                }
                List<String> raw = turnsKey(requested).readAll();
                if (!raw.isEmpty()) {
                    return new SessionContext(requested, true, raw.stream().map(this::parse).toList());
                }
            }
        } catch (RuntimeException e) {
            redisFailures.increment();
            log.debug("session: Redis unavailable, reading session from PostgreSQL", e);
        }
        if (!ownedInDatabase(requested, clientId, userId)) {
            return SessionContext.fresh();
        }
        List<Turn> turns = lastTurnsFromDatabase(requested);
        warm(requested, owner, turns);
        return new SessionContext(requested, true, turns);
    }

    /** Appends turns (already masked) to the Redis copy; best effort. */
    public void append(UUID sessionId, long clientId, String userId, List<Turn> turns) {
        try {
            RBatch batch = redisson.createBatch();
            String listKey = properties.keyPrefix() + "{" + sessionId + "}:turns";
            for (Turn turn : turns) {
                batch.getList(listKey, StringCodec.INSTANCE).addAsync(json.writeValueAsString(turn));
            }
            batch.getList(listKey, StringCodec.INSTANCE).trimAsync(-properties.maxTurns(), -1);
            batch.getList(listKey, StringCodec.INSTANCE).expireAsync(properties.ttl());
            batch.getBucket(properties.keyPrefix() + "{" + sessionId + "}:owner", StringCodec.INSTANCE)
                .setAsync(owner(clientId, userId), properties.ttl());
            batch.execute();
        } catch (RuntimeException e) {
            redisFailures.increment();
            log.debug("session: Redis unavailable, turns kept in PostgreSQL only", e);
        }
    }

    private void warm(UUID sessionId, String owner, List<Turn> turns) {
        try {
            RBatch batch = redisson.createBatch();
            String listKey = properties.keyPrefix() + "{" + sessionId + "}:turns";
            batch.getList(listKey, StringCodec.INSTANCE).deleteAsync();
            for (Turn turn : turns) {
                batch.getList(listKey, StringCodec.INSTANCE).addAsync(json.writeValueAsString(turn));
            }
            batch.getList(listKey, StringCodec.INSTANCE).expireAsync(properties.ttl());
            batch.getBucket(properties.keyPrefix() + "{" + sessionId + "}:owner", StringCodec.INSTANCE)
                .setAsync(owner, properties.ttl());
            batch.execute();
        } catch (RuntimeException e) {
            redisFailures.increment();
        }
    }

    private boolean ownedInDatabase(UUID sessionId, long clientId, String userId) {
        Optional<Integer> found = jdbc.sql("SELECT 1 FROM conversation WHERE id = ? AND client_id = ? AND user_id = ?")
            .params(sessionId, clientId, userId)
            .query(Integer.class)
            .optional();
        return found.isPresent();
    }

    private List<Turn> lastTurnsFromDatabase(UUID sessionId) {
        List<Turn> newestFirst = jdbc.sql("""
                SELECT role, content, created_at FROM conversation_message
                WHERE conversation_id = ? ORDER BY id DESC LIMIT ?""")
            .params(sessionId, properties.maxTurns())
            .query((rs, row) -> new Turn(rs.getString("role"), rs.getString("content"),
                rs.getTimestamp("created_at").getTime()))
            .list();
        List<Turn> turns = new ArrayList<>(newestFirst);
        java.util.Collections.reverse(turns);
        return turns;
    }

    private Turn parse(String raw) {
        return json.readValue(raw, Turn.class);
    }

    private RBucket<String> ownerKey(UUID sessionId) {
        return redisson.getBucket(properties.keyPrefix() + "{" + sessionId + "}:owner", StringCodec.INSTANCE);
    }

    private RList<String> turnsKey(UUID sessionId) {
        return redisson.getList(properties.keyPrefix() + "{" + sessionId + "}:turns", StringCodec.INSTANCE);
    }

    private static String owner(long clientId, String userId) {
        return clientId + "|" + userId;
    }
}
