package io.sluice.api.openai.keys;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The /v1 request log (gateway_request_log): one row per call, answered or refused, with key, model,
 * route, provider, status, tier, latency and tokens. Rows older than the retention are dropped at most
 * once a minute, on the write path. A failed write is logged and never fails the call.
 *
 * <p>With {@code write-behind} on, a call only queues its row (stamped with its own time); {@link #flush()}
 * writes the queue in multi-row INSERTs — {@link GatewayWriteBehind} every {@code flush-every} and on
 * shutdown, and every read here first, so a read sees every call that ended before it. A batch that fails
 * goes back to the queue for the next flush; a full queue makes the call write its own row.
 */
public class RequestLog {

    private static final Logger log = LoggerFactory.getLogger(RequestLog.class);
    private static final long PURGE_EVERY_NANOS = 60_000_000_000L;

    /** One call. */
    public record Entry(Instant at, long clientId, String userId, String model, String route, String provider, int status,
            String tier, int latencyMs, int promptTokens, int completionTokens, boolean stream, String errorCode) {
    }

    /** Filters of the console page; null = any. */
    public record Filter(Long clientId, String model, String provider, Integer status, String tier, Integer minLatencyMs) {
    }

    /** Rows per INSERT: 13 parameters each, far below PostgreSQL's 65,535 per statement. */
    static final int BATCH_ROWS = 500;

    private final JdbcClient jdbc;
    private final KeyBudgetProperties properties;
    private final AtomicLong lastPurge = new AtomicLong(System.nanoTime() - PURGE_EVERY_NANOS);
    private final Queue<Entry> pending = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pendingCount = new AtomicInteger();
    private final ReentrantLock flushing = new ReentrantLock();

    public RequestLog(JdbcClient jdbc, KeyBudgetProperties properties) {
        this.jdbc = jdbc;
        this.properties = properties;
    }

    public void write(Entry e) {
        Entry stamped = e.at() != null ? e : new Entry(Instant.now(), e.clientId(), e.userId(), e.model(), e.route(),
            e.provider(), e.status(), e.tier(), e.latencyMs(), e.promptTokens(), e.completionTokens(), e.stream(),
            e.errorCode());
        if (properties.writeBehind().enabled() && queue(stamped)) {
            return;
        }
        try {
            insert(List.of(stamped));
            purgeNowAndThen();
        } catch (RuntimeException ex) {
            log.warn("gateway request log: row not written: {}", ex.toString());
        }
    }

    private boolean queue(Entry e) {
        if (pendingCount.incrementAndGet() > properties.writeBehind().maxPending()) {
            pendingCount.decrementAndGet();
            return false;
        }
        pending.add(e);
        return true;
    }

    /** Rows queued and not yet written. */
    public int pending() {
        return pendingCount.get();
    }

    /**
     * Writes every queued row (one flush at a time, so a read that flushes also waits for a flush already
     * under way). A failed batch is queued again, as far as there is room.
     */
    public void flush() {
        if (pendingCount.get() == 0 && !flushing.isLocked()) {
            return;
        }
        flushing.lock();
        try {
            GatewayWriteBehind.inBatches(() -> {
                Entry e = pending.poll();
                if (e != null) {
                    pendingCount.decrementAndGet();
                }
                return e;
            }, BATCH_ROWS, this::write);
        } finally {
            flushing.unlock();
        }
    }

    private void write(List<Entry> batch) {
        try {
            insert(batch);
            purgeNowAndThen();
        } catch (RuntimeException ex) {
            int kept = 0;
            for (Entry e : batch) {
                kept += queue(e) ? 1 : 0;
            }
            log.warn("gateway request log: {} rows not written ({} queued again): {}", batch.size(), kept, ex.toString());
        }
    }

    private void insert(List<Entry> rows) {
        StringBuilder sql = new StringBuilder("""
            INSERT INTO gateway_request_log (at, client_id, user_id, model, route, provider, status, tier, latency_ms,
                                             prompt_tokens, completion_tokens, stream, error_code) VALUES """);
        List<Object> params = new ArrayList<>(rows.size() * 13);
        for (Entry e : rows) {
            sql.append(params.isEmpty() ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            params.addAll(Arrays.asList(e.at().atOffset(ZoneOffset.UTC), e.clientId(), cut(e.userId(), 128), cut(e.model(), 200),
                cut(e.route(), 200), cut(e.provider(), 100), e.status(), e.tier(), e.latencyMs(), e.promptTokens(),
                e.completionTokens(), e.stream(), cut(e.errorCode(), 64)));
        }
        jdbc.sql(sql.toString()).params(params).update();
    }

    /** The newest rows matching the filter (at most {@code limit}); rows still queued are written first. */
    public List<Entry> find(Filter f, int limit) {
        flush();
        StringBuilder sql = new StringBuilder("""
            SELECT at, client_id, user_id, model, route, provider, status, tier, latency_ms, prompt_tokens,
                   completion_tokens, stream, error_code FROM gateway_request_log WHERE true""");
        List<Object> params = new ArrayList<>();
        if (f.clientId() != null) {
            sql.append(" AND client_id = ?");
            params.add(f.clientId());
        }
        if (f.model() != null && !f.model().isBlank()) {
            sql.append(" AND (model = ? OR route = ?)");
            params.add(f.model());
            params.add(f.model());
        }
        if (f.provider() != null && !f.provider().isBlank()) {
            sql.append(" AND provider = ?");
            params.add(f.provider());
        }
        if (f.status() != null) {
            sql.append(" AND status = ?");
            params.add(f.status());
        }
        if (f.tier() != null && !f.tier().isBlank()) {
            sql.append(" AND tier = ?");
            params.add(f.tier());
        }
        if (f.minLatencyMs() != null) {
            sql.append(" AND latency_ms >= ?");
            params.add(f.minLatencyMs());
        }
        sql.append(" ORDER BY at DESC, id DESC LIMIT ?");
        params.add(Math.max(1, Math.min(limit, 500)));
        return jdbc.sql(sql.toString()).params(params)
            .query((rs, n) -> new Entry(rs.getTimestamp(1).toInstant(), rs.getLong(2), rs.getString(3), rs.getString(4),
                rs.getString(5), rs.getString(6), rs.getInt(7), rs.getString(8), rs.getInt(9), rs.getInt(10), rs.getInt(11),
                rs.getBoolean(12), rs.getString(13)))
            .list();
    }

    private void purgeNowAndThen() {
        long last = lastPurge.get();
        long now = System.nanoTime();
        if (now - last >= PURGE_EVERY_NANOS && lastPurge.compareAndSet(last, now)) {
            jdbc.sql("DELETE FROM gateway_request_log WHERE at < now() - make_interval(secs => ?)")
                .param((double) properties.requestLogRetention().toSeconds()).update();
        }
    }

    private static String cut(String value, int max) {
        return value == null || value.length() <= max ? value : value.substring(0, max);
    }
}
