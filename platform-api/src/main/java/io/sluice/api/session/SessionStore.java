package io.sluice.api.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.cluster.LuaScript;

import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RListAsync;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;

import tools.jackson.databind.ObjectMapper;

/**
 * Sessions: the last turns and the key facts in Redis (TTL, trimmed to {@code maxTurns} / {@code maxFacts})
 * in front of PostgreSQL, which has every message and fact. A session continues only for the client and
 * user that own it. Redis trouble never fails a request: the session comes from this instance's in-memory
 * digest ({@link SessionDigests}) if it has one, else from PostgreSQL; appends to Redis are skipped
 * (counted in {@code sluice.session.redis.failures}). Where each read came from:
 * {@code sluice.session.reads{source=redis|digest|postgres|new}}.
 */
public class SessionStore {

    private static final Logger log = LoggerFactory.getLogger(SessionStore.class);

    private final RedissonClient redisson;
    private final JdbcClient jdbc;
    private final ObjectMapper json;
    private final SessionProperties properties;
    private final Counter redisFailures;
    private final SessionDigests digests;
    private final MeterRegistry meters;
    private final LuaScript appendScript;

    /**
     * An exchange's append in one command: the turns and facts pushed and trimmed, both lists' and the owner's
     * TTL renewed. As a batch it was seven commands, each with its own reply for the client to decode (a twelfth of
     * an exact cache hit's CPU). The keys share the session's hash tag, so it runs on a Redis Cluster too.
     * KEYS: turns, facts, owner; ARGV: ttl ms, max turns, max facts, owner, turn count, the turns, the facts.
     */
    private static final String APPEND = """
        local ttl = tonumber(ARGV[1])
        local turns = tonumber(ARGV[5])
        if turns > 0 then
          redis.call('RPUSH', KEYS[1], unpack(ARGV, 6, 5 + turns))
        end
        redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
        redis.call('PEXPIRE', KEYS[1], ttl)
        if #ARGV > 5 + turns then
          redis.call('RPUSH', KEYS[2], unpack(ARGV, 6 + turns, #ARGV))
          redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
        end
        redis.call('PEXPIRE', KEYS[2], ttl)
        redis.call('SET', KEYS[3], ARGV[4], 'PX', ttl)
        return {}
        """;

    public SessionStore(RedissonClient redisson, JdbcClient jdbc, ObjectMapper json, SessionProperties properties,
            MeterRegistry meters) {
        this.redisson = redisson;
        this.jdbc = jdbc;
        this.json = json;
        this.properties = properties;
        this.meters = meters;
        this.appendScript = new LuaScript(redisson, APPEND);
        this.redisFailures = Counter.builder("sluice.session.redis.failures")
            .description("session reads/writes that fell back to the digest or PostgreSQL, or were skipped, because Redis failed")
            .register(meters);
        this.digests = new SessionDigests(properties);
        Gauge.builder("sluice.session.digests", digests, SessionDigests::size)
            .description("sessions whose compact digest this instance keeps in memory").register(meters);
    }

    /** Continues the requested session if this client's user owns it; otherwise starts a new one. */
    public SessionContext open(UUID requested, long clientId, String userId) {
        if (requested == null) {
            return read("new", SessionContext.fresh());
        }
        String owner = owner(clientId, userId);
        try {
            RBatch batch = redisson.createBatch();
            RFuture<Object> cachedOwnerF = batch.getBucket(ownerKey(requested), StringCodec.INSTANCE).getAsync();
            RFuture<List<Object>> rawF = batch.getList(turnsKey(requested), StringCodec.INSTANCE).readAllAsync();
            RFuture<List<Object>> factsF = batch.getList(factsKey(requested), StringCodec.INSTANCE).readAllAsync();
            batch.execute();
            String cachedOwner = (String) cachedOwnerF.getNow();
            if (cachedOwner != null) {
                if (!cachedOwner.equals(owner)) {
                    return read("new", SessionContext.fresh());
                }
                List<Object> raw = rawF.getNow();
                if (!raw.isEmpty()) {
                    List<Turn> turns = raw.stream().map(r -> json.readValue((String) r, Turn.class)).toList();
                    List<SessionFact> facts = factsF.getNow().stream()
                        .map(r -> json.readValue((String) r, SessionFact.class)).toList();
                    digests.put(requested, owner, turns, facts);
                    return read("redis", new SessionContext(requested, true, turns, facts));
                }
            }
        } catch (RuntimeException e) {
            redisFailures.increment();
            log.debug("session: Redis unavailable, reading session from the digest or PostgreSQL", e);
            Optional<SessionContext> digest = digests.read(requested, owner);
            if (digest.isPresent()) {
                return read("digest", digest.get());
            }
        }
        List<Turn> turns;
        List<SessionFact> facts;
        try {
            if (!ownedInDatabase(requested, clientId, userId)) {
                return read("new", SessionContext.fresh());
            }
            turns = lastTurnsFromDatabase(requested);
            facts = factsFromDatabase(requested);
        } catch (DataAccessException e) {
            // neither Redis nor the database nor a digest: a new session rather than a failed request
            log.warn("session {}: not readable (database unavailable: {}), starting a new one", requested, e.getMessage());
            return read("new", SessionContext.fresh());
        }
        warm(requested, owner, turns, facts);
        digests.put(requested, owner, turns, facts);
        return read("postgres", new SessionContext(requested, true, turns, facts));
    }

    /** Appends turns (already masked) to the Redis copy; best effort. */
    public void append(UUID sessionId, long clientId, String userId, List<Turn> turns) {
        append(sessionId, clientId, userId, turns, List.of());
    }

    /** Appends turns and new facts (already masked) to the digest and the Redis copy; best effort. */
    public void append(UUID sessionId, long clientId, String userId, List<Turn> turns, List<SessionFact> facts) {
        String owner = owner(clientId, userId);
        digests.append(sessionId, owner, turns, facts);
        try {
            List<Object> args = new ArrayList<>(5 + turns.size() + facts.size());
            args.add(properties.ttl().toMillis());
            args.add(properties.maxTurns());
            args.add(properties.maxFacts());
            args.add(owner);
            args.add(turns.size());
            for (Turn turn : turns) {
                args.add(json.writeValueAsString(turn));
            }
            for (SessionFact fact : facts) {
                args.add(json.writeValueAsString(fact));
            }
            appendScript.run(List.of(turnsKey(sessionId), factsKey(sessionId), ownerKey(sessionId)), args.toArray());
        } catch (RuntimeException e) {
            redisFailures.increment();
            log.debug("session: Redis unavailable, turns kept in PostgreSQL and the digest only", e);
        }
    }

    /**
     * Stores new facts in PostgreSQL (after the exchange's conversation row exists); a database outage
     * loses them there only (they are still in Redis and the digest).
     */
    public void recordFacts(UUID sessionId, List<SessionFact> facts) {
        if (facts.isEmpty()) {
            return;
        }
        try {
            for (SessionFact fact : facts) {
                jdbc.sql("INSERT INTO session_fact (conversation_id, kind, content, created_at) VALUES (?, ?, ?, ?)")
                    .params(sessionId, fact.kind(), fact.text(), new java.sql.Timestamp(fact.atEpochMs()))
                    .update();
            }
        } catch (DataAccessException e) {
            log.warn("session {}: facts not recorded, database unavailable: {}", sessionId, e.getMessage());
        }
    }

    /** Forgets this instance's digests (a restart does the same; tests). */
    public void clearDigests() {
        digests.clear();
    }

    private SessionContext read(String source, SessionContext context) {
        meters.counter("sluice.session.reads", "source", source).increment();
        return context;
    }

    private void warm(UUID sessionId, String owner, List<Turn> turns, List<SessionFact> facts) {
        try {
            RBatch batch = redisson.createBatch();
            RListAsync<String> list = batch.getList(turnsKey(sessionId), StringCodec.INSTANCE);
            list.deleteAsync();
            for (Turn turn : turns) {
                list.addAsync(json.writeValueAsString(turn));
            }
            list.expireAsync(properties.ttl());
            RListAsync<String> factList = batch.getList(factsKey(sessionId), StringCodec.INSTANCE);
            factList.deleteAsync();
            for (SessionFact fact : facts) {
                factList.addAsync(json.writeValueAsString(fact));
            }
            factList.expireAsync(properties.ttl());
            batch.getBucket(ownerKey(sessionId), StringCodec.INSTANCE).setAsync(owner, properties.ttl());
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

    private List<SessionFact> factsFromDatabase(UUID sessionId) {
        List<SessionFact> newestFirst = jdbc.sql("""
                SELECT kind, content, created_at FROM session_fact
                WHERE conversation_id = ? ORDER BY id DESC LIMIT ?""")
            .params(sessionId, properties.maxFacts())
            .query((rs, row) -> new SessionFact(rs.getString("kind"), rs.getString("content"),
                rs.getTimestamp("created_at").getTime()))
            .list();
        List<SessionFact> facts = new ArrayList<>(newestFirst);
        java.util.Collections.reverse(facts);
        return facts;
    }

    private String ownerKey(UUID sessionId) {
        return properties.keyPrefix() + "{" + sessionId + "}:owner";
    }

    private String turnsKey(UUID sessionId) {
        return properties.keyPrefix() + "{" + sessionId + "}:turns";
    }

    private String factsKey(UUID sessionId) {
        return properties.keyPrefix() + "{" + sessionId + "}:facts";
    }

    private static String owner(long clientId, String userId) {
        return clientId + "|" + userId;
    }
}
