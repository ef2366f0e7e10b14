package io.sluice.batch.queue;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.sluice.batch.SluiceBatchProperties;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The durable work queue on PostgreSQL ({@code work_item}).
 *
 * <ul>
 * <li><b>Enqueue</b> is idempotent per idempotency key and owner: a duplicate returns the existing item;
 * one client's key never finds another client's item.</li>
 * <li><b>Claim</b> takes ready items with {@code SELECT ... FOR UPDATE SKIP LOCKED}, so any number of
 * workers on any number of instances each get different items, and sets a lease (visibility timeout)
 * and a fresh fencing token. The claim commits on its own, before any LLM call: no transaction is held
 * open across slow work. An item whose lease expired (its worker died) is claimable again.</li>
 * <li>Each claim counts an attempt. A failed attempt goes back with exponential backoff, or to
 * dead-letter (DEAD, with its last error) when attempts are exhausted. A saturation put-back gives the
 * attempt back.</li>
 * <li>Finishing (complete, fail, requeue, dead-letter) is fenced by the claim's token and joins the
 * caller's transaction, so a result and the item's DONE state commit together.</li>
 * </ul>
 */
public class WorkQueue {

    public static final String DEFAULT_QUEUE = "default";

    private static final String COLUMNS = "id, ticket, queue, type, priority, payload::text AS payload, idempotency_key, "
        + "state, attempts, max_attempts, next_attempt_at, locked_by, locked_until, progress, result::text AS result, "
        + "last_error, created_at, updated_at, completed_at, client_id";

    private static final int MAX_ERROR_CHARS = 2000;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate ownTransaction;
    private final SluiceBatchProperties.Queue settings;
    private QueueMetrics metrics;

    public WorkQueue(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, SluiceBatchProperties.Queue settings) {
        this.jdbc = jdbc;
        this.ownTransaction = new TransactionTemplate(transactionManager);
        this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.settings = settings;
    }

    public void metrics(QueueMetrics queueMetrics) {
        this.metrics = queueMetrics;
    }

    public SluiceBatchProperties.Queue settings() {
        return settings;
    }

    /** Adds an item, or returns the existing one of the same owner with the same idempotency key. */
    public Enqueued enqueue(NewWorkItem item) {
        int maxAttempts = item.maxAttempts() > 0 ? item.maxAttempts() : settings.maxAttempts();
        List<WorkItem> inserted = jdbc.query("""
            INSERT INTO work_item (queue, type, priority, payload, idempotency_key, max_attempts, client_id)
            VALUES (?, ?, ?, ?::jsonb, ?, ?, ?)
            ON CONFLICT ((coalesce(client_id, 0)), idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
            RETURNING\s""" + COLUMNS, ITEM, item.queue(), item.type(), item.priority(), item.payload(),
            item.idempotencyKey(), maxAttempts, item.clientId());
        if (!inserted.isEmpty()) {
            count(QueueMetrics::enqueued);
            return new Enqueued(inserted.get(0), true);
        }
        WorkItem existing = findByIdempotencyKey(item.idempotencyKey(), item.clientId())
            .orElseThrow(() -> new IllegalStateException("idempotency key conflict but no item found"));
        count(QueueMetrics::duplicate);
        return new Enqueued(existing, false);
    }

    public Optional<WorkItem> find(UUID ticket) {
        return jdbc.query("SELECT " + COLUMNS + " FROM work_item WHERE ticket = ?", ITEM, ticket).stream().findFirst();
    }

    /** The item with this ticket if it belongs to {@code clientId} (null = internal items only). */
    public Optional<WorkItem> find(UUID ticket, Long clientId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM work_item WHERE ticket = ? AND client_id IS NOT DISTINCT FROM ?",
            ITEM, ticket, clientId).stream().findFirst();
    }

    public Optional<WorkItem> find(long id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM work_item WHERE id = ?", ITEM, id).stream().findFirst();
    }

    /** The internal item (no owning client) with this idempotency key. */
    public Optional<WorkItem> findByIdempotencyKey(String key) {
        return findByIdempotencyKey(key, null);
    }

    /** The item of {@code clientId} (null = internal) with this idempotency key. */
    public Optional<WorkItem> findByIdempotencyKey(String key, Long clientId) {
        if (key == null) {
            return Optional.empty();
        }
        return jdbc.query("SELECT " + COLUMNS + " FROM work_item WHERE idempotency_key = ? AND coalesce(client_id, 0) = ?",
            ITEM, key, clientId == null ? 0L : clientId).stream().findFirst();
    }

    /**
     * Claims up to {@code max} ready items of a queue for {@code owner}, in priority order, under a lease.
     * Runs and commits in its own transaction. Items whose lease expired with no attempts left go to
     * dead-letter first.
     */
    public List<ClaimedItem> claim(String queue, int max, String owner, Duration lease) {
        UUID token = UUID.randomUUID();
        List<ClaimedItem> claimed = ownTransaction.execute(status -> {
            int reaped = jdbc.update("""
                UPDATE work_item SET state = 'DEAD', completed_at = clock_timestamp(), updated_at = clock_timestamp(),
                       last_error = left('lease expired on attempt ' || attempts || ' of ' || max_attempts
                           || ' (worker ' || coalesce(locked_by, '?') || ')'
                           || coalesce('; before that: ' || last_error, ''), 2000),
                       locked_by = NULL, lease_token = NULL, locked_until = NULL
                WHERE queue = ? AND state = 'RUNNING' AND locked_until < now() AND attempts >= max_attempts""", queue);
            for (int i = 0; i < reaped; i++) {
                count(QueueMetrics::deadLettered);
            }
            return jdbc.query("""
                WITH ready AS (
                    SELECT id FROM work_item
                    WHERE queue = ?
                      AND ((state = 'QUEUED' AND next_attempt_at <= now())
                        OR (state = 'RUNNING' AND locked_until < now()))
                    ORDER BY priority, next_attempt_at, id
                    LIMIT ?
                    FOR UPDATE SKIP LOCKED)
                UPDATE work_item w
                   SET state = 'RUNNING', attempts = w.attempts + 1, locked_by = ?, lease_token = ?,
                       locked_until = now() + (? * interval '1 millisecond'), progress = 0, updated_at = now()
                  FROM ready WHERE w.id = ready.id
                RETURNING w.id, w.ticket, w.queue, w.type, w.priority, w.payload::text AS payload, w.attempts, w.max_attempts""",
                (rs, n) -> new ClaimedItem(rs.getLong("id"), rs.getObject("ticket", UUID.class), rs.getString("queue"),
                    rs.getString("type"), rs.getInt("priority"), rs.getString("payload"), rs.getInt("attempts"),
                    rs.getInt("max_attempts"), owner, token),
                queue, max, owner, token, lease.toMillis());
        });
        List<ClaimedItem> ordered = new ArrayList<>(claimed == null ? List.of() : claimed);
        ordered.sort(Comparator.comparingInt(ClaimedItem::priority).thenComparingLong(ClaimedItem::id));
        if (!ordered.isEmpty() && metrics != null) {
            metrics.claimed(ordered.size());
        }
        return ordered;
    }

    /** Marks the item DONE with its result; false when the lease was lost (nothing changed). */
    public boolean complete(ClaimedItem item, String resultJson) {
        int updated = jdbc.update("""
            UPDATE work_item SET state = 'DONE', result = ?::jsonb, progress = 100, completed_at = clock_timestamp(), updated_at = clock_timestamp(),
                   locked_by = NULL, lease_token = NULL, locked_until = NULL
            WHERE id = ? AND lease_token = ? AND state = 'RUNNING'""", resultJson, item.id(), item.leaseToken());
        return fenced(updated, QueueMetrics::completed);
    }

    /**
     * {@link #complete} for many items in one JDBC batch; element i tells whether item i was still ours.
     */
    public boolean[] completeAll(List<ClaimedItem> items, List<String> resultsJson) {
        int[] counts = jdbc.batchUpdate("""
            UPDATE work_item SET state = 'DONE', result = ?::jsonb, progress = 100, completed_at = clock_timestamp(), updated_at = clock_timestamp(),
                   locked_by = NULL, lease_token = NULL, locked_until = NULL
            WHERE id = ? AND lease_token = ? AND state = 'RUNNING'""", new org.springframework.jdbc.core.BatchPreparedStatementSetter() {
            @Override
            public void setValues(java.sql.PreparedStatement ps, int i) throws SQLException {
                ps.setString(1, resultsJson.get(i));
                ps.setLong(2, items.get(i).id());
                ps.setObject(3, items.get(i).leaseToken());
            }

            @Override
            public int getBatchSize() {
                return items.size();
            }
        });
        boolean[] owned = new boolean[counts.length];
        for (int i = 0; i < counts.length; i++) {
            owned[i] = counts[i] == 1;
            count(owned[i] ? QueueMetrics::completed : QueueMetrics::leaseLost);
        }
        return owned;
    }

    /**
     * Records a failed attempt: back to the queue after the backoff, or to dead-letter when this was the
     * last attempt.
     */
    public FailOutcome fail(ClaimedItem item, String error) {
        Duration backoff = settings.backoff(item.attempts());
        List<String> state = jdbc.queryForList("""
            UPDATE work_item SET
                   state = CASE WHEN attempts >= max_attempts THEN 'DEAD' ELSE 'QUEUED' END,
                   completed_at = CASE WHEN attempts >= max_attempts THEN clock_timestamp() END,
                   next_attempt_at = clock_timestamp() + (? * interval '1 millisecond'),
                   last_error = ?, updated_at = now(), locked_by = NULL, lease_token = NULL, locked_until = NULL
            WHERE id = ? AND lease_token = ? AND state = 'RUNNING'
            RETURNING state""", String.class, backoff.toMillis(), truncate(error), item.id(), item.leaseToken());
        if (state.isEmpty()) {
            count(QueueMetrics::leaseLost);
            return FailOutcome.LOST_LEASE;
        }
        if ("DEAD".equals(state.get(0))) {
            count(QueueMetrics::deadLettered);
            return FailOutcome.DEAD;
        }
        count(QueueMetrics::retried);
        return FailOutcome.RETRY;
    }

    /** Moves the item to dead-letter now (poison: retrying cannot help). */
    public boolean deadLetter(ClaimedItem item, String reason) {
        int updated = jdbc.update("""
            UPDATE work_item SET state = 'DEAD', last_error = ?, completed_at = clock_timestamp(), updated_at = clock_timestamp(),
                   locked_by = NULL, lease_token = NULL, locked_until = NULL
            WHERE id = ? AND lease_token = ? AND state = 'RUNNING'""", truncate(reason), item.id(), item.leaseToken());
        return fenced(updated, QueueMetrics::deadLettered);
    }

    /** Puts the item back without using an attempt (the batch lane was saturated), due after {@code delay}. */
    public boolean requeue(ClaimedItem item, Duration delay) {
        int updated = jdbc.update("""
            UPDATE work_item SET state = 'QUEUED', attempts = greatest(attempts - 1, 0),
                   next_attempt_at = clock_timestamp() + (? * interval '1 millisecond'), updated_at = now(),
                   locked_by = NULL, lease_token = NULL, locked_until = NULL
            WHERE id = ? AND lease_token = ? AND state = 'RUNNING'""", delay.toMillis(), item.id(), item.leaseToken());
        return fenced(updated, QueueMetrics::requeued);
    }

    /**
     * Gives back everything {@code owner} still holds (a stopped or failed run), without using attempts;
     * the items are due at once. Returns how many.
     */
    public int releaseAll(String owner) {
        return jdbc.update("""
            UPDATE work_item SET state = 'QUEUED', attempts = greatest(attempts - 1, 0), next_attempt_at = now(),
                   updated_at = now(), locked_by = NULL, lease_token = NULL, locked_until = NULL
            WHERE state = 'RUNNING' AND locked_by = ?""", owner);
    }

    /**
     * Extends the lease of every item {@code owner} still holds to {@code lease} from now (its worker is
     * alive and still working). Items whose lease passed to another worker are not the owner's any more
     * and stay untouched. Returns how many were renewed.
     */
    public int renew(String owner, Duration lease) {
        int renewed = jdbc.update("""
            UPDATE work_item SET locked_until = now() + (? * interval '1 millisecond'), updated_at = now()
            WHERE state = 'RUNNING' AND locked_by = ?""", lease.toMillis(), owner);
        if (renewed > 0 && metrics != null) {
            metrics.renewed(renewed);
        }
        return renewed;
    }

    /** Progress 0..100 of a held item (shown by GET /api/v1/tasks/{id}). */
    public boolean progress(ClaimedItem item, int percent) {
        return jdbc.update("UPDATE work_item SET progress = ?, updated_at = now() WHERE id = ? AND lease_token = ? AND state = 'RUNNING'",
            Math.max(0, Math.min(100, percent)), item.id(), item.leaseToken()) == 1;
    }

    /** Items of a queue not finished yet (QUEUED or RUNNING). */
    public long pending(String queue) {
        Long n = jdbc.queryForObject("SELECT count(*) FROM work_item WHERE queue = ? AND state IN ('QUEUED', 'RUNNING')",
            Long.class, queue);
        return n == null ? 0 : n;
    }

    public Map<WorkState, Long> depth(String queue) {
        Map<WorkState, Long> depth = new EnumMap<>(WorkState.class);
        jdbc.query("SELECT state, count(*) AS n FROM work_item WHERE queue = ? GROUP BY state",
            rs -> { depth.put(WorkState.valueOf(rs.getString("state")), rs.getLong("n")); }, queue);
        return depth;
    }

    /** Items by state over all queues (the depth gauges). */
    public Map<WorkState, Long> depth() {
        Map<WorkState, Long> depth = new EnumMap<>(WorkState.class);
        jdbc.query("SELECT state, count(*) AS n FROM work_item GROUP BY state",
            rs -> { depth.put(WorkState.valueOf(rs.getString("state")), rs.getLong("n")); });
        return depth;
    }

    /**
     * How long until an item of the queue not held by {@code owner} becomes claimable (a backoff ends or
     * another worker's lease expires); empty when nothing is pending.
     */
    public Optional<Duration> nextDue(String queue, String owner) {
        List<Long> millis = jdbc.queryForList("""
            SELECT greatest(0, ceil(extract(epoch FROM (t - clock_timestamp())) * 1000))::bigint FROM (
                SELECT min(t) AS t FROM (
                    SELECT min(next_attempt_at) AS t FROM work_item WHERE queue = ? AND state = 'QUEUED'
                    UNION ALL
                    SELECT min(locked_until) FROM work_item WHERE queue = ? AND state = 'RUNNING' AND locked_by IS DISTINCT FROM ?
                ) candidates
            ) due WHERE t IS NOT NULL""", Long.class, queue, queue, owner);
        return millis.stream().filter(m -> m != null).findFirst().map(Duration::ofMillis);
    }

    private boolean fenced(int updated, java.util.function.Consumer<QueueMetrics> counter) {
        if (updated == 1) {
            count(counter);
            return true;
        }
        count(QueueMetrics::leaseLost);
        return false;
    }

    private void count(java.util.function.Consumer<QueueMetrics> counter) {
        if (metrics != null) {
            counter.accept(metrics);
        }
    }

    static String truncate(String error) {
        if (error == null) {
            return null;
        }
        return error.length() <= MAX_ERROR_CHARS ? error : error.substring(0, MAX_ERROR_CHARS - 1) + "…";
    }

    private static final RowMapper<WorkItem> ITEM = WorkQueue::map;

    private static WorkItem map(ResultSet rs, int row) throws SQLException {
        return new WorkItem(rs.getLong("id"), rs.getObject("ticket", UUID.class), rs.getString("queue"), rs.getString("type"),
            rs.getInt("priority"), rs.getString("payload"), rs.getString("idempotency_key"),
            WorkState.valueOf(rs.getString("state")), rs.getInt("attempts"), rs.getInt("max_attempts"),
            instant(rs, "next_attempt_at"), rs.getString("locked_by"), instant(rs, "locked_until"), rs.getInt("progress"),
            rs.getString("result"), rs.getString("last_error"), instant(rs, "created_at"), instant(rs, "updated_at"),
            instant(rs, "completed_at"), (Long) rs.getObject("client_id"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp ts = rs.getTimestamp(column);
        return ts == null ? null : ts.toInstant();
    }
}
