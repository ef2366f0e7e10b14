package io.sluice.console.jobs;

import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.batch.SluiceBatchProperties;
import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.jobs.JobDescriptions;
import io.sluice.batch.progress.JobProgress;
import io.sluice.console.audit.AuditLog;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Jobs and the work queue for operators. Launch, stop, restart and progress go through batch-jobs'
 * {@link JobControl}; run history and the queue's items are read from the database (Spring Batch's
 * tables and {@code work_item}), and retry / discard of dead-letter items are SQL here because the
 * work queue offers no operator API for them.
 */
@Service
public class JobsConsole {

    private final JobControl jobs;
    private final SluiceBatchProperties properties;
    private final JdbcClient jdbc;
    private final AuditLog audit;

    public JobsConsole(JobControl jobs, SluiceBatchProperties properties, JdbcClient jdbc, AuditLog audit) {
        this.jobs = jobs;
        this.properties = properties;
        this.jdbc = jdbc;
        this.audit = audit;
    }

    public record Run(long executionId, String status, String exitCode, String exitDescription,
            OffsetDateTime startTime, OffsetDateTime endTime, long written, long skipped) {
        public boolean running() {
            return "STARTING".equals(status) || "STARTED".equals(status) || "STOPPING".equals(status);
        }

        public boolean restartable() {
            return "FAILED".equals(status) || "STOPPED".equals(status);
        }

        /** How long the run took (or has taken so far), in words: "850 ms", "42 s", "3 min 5 s", "1 h 2 min". */
        public String duration() {
            if (startTime == null) {
                return "";
            }
            OffsetDateTime end = endTime != null ? endTime : OffsetDateTime.now(java.time.ZoneOffset.UTC);
            return words(java.time.Duration.between(startTime, end));
        }

        static String words(java.time.Duration d) {
            if (d.isNegative()) {
                return "";
            }
            if (d.toSeconds() < 1) {
                return d.toMillis() + " ms";
            }
            if (d.toMinutes() < 1) {
                return d.toSeconds() + " s";
            }
            if (d.toHours() < 1) {
                return d.toMinutes() + " min " + d.toSecondsPart() + " s";
            }
            return d.toHours() + " h " + d.toMinutesPart() + " min";
        }
    }

    public record JobView(String name, String schedule, JobDescriptions.Description description, List<Run> runs) {
    }

    public List<JobView> jobs() {
        return jobs.jobNames().stream()
            .map(name -> new JobView(name, schedule(name), JobDescriptions.of(name), runs(name, 10)))
            .toList();
    }

    /** One run by its execution id (the jobs page refreshes a live run's row with it). */
    public java.util.Optional<Run> run(long executionId) {
        return jdbc.sql(RUNS + " WHERE e.job_execution_id = ?")
            .param(executionId)
            .query(JobsConsole::run)
            .optional();
    }

    private String schedule(String name) {
        SluiceBatchProperties.JobSchedule s = properties.jobs() == null ? null : properties.jobs().get(name);
        if (s == null || s.cron() == null || s.cron().isBlank()) {
            return "on demand";
        }
        return s.enabled() ? "cron " + s.cron() : "cron " + s.cron() + " (disabled)";
    }

    private static final String RUNS = """
        SELECT e.job_execution_id, e.status, e.exit_code, e.exit_message, e.start_time, e.end_time,
               COALESCE((SELECT sum(s.write_count) FROM batch_step_execution s
                         WHERE s.job_execution_id = e.job_execution_id), 0) AS written,
               COALESCE((SELECT sum(s.process_skip_count + s.read_skip_count + s.write_skip_count)
                         FROM batch_step_execution s WHERE s.job_execution_id = e.job_execution_id), 0) AS skipped
        FROM batch_job_execution e JOIN batch_job_instance i ON i.job_instance_id = e.job_instance_id""";

    public List<Run> runs(String job, int limit) {
        return jdbc.sql(RUNS + " WHERE i.job_name = ? ORDER BY e.job_execution_id DESC LIMIT ?")
            .params(job, limit)
            .query(JobsConsole::run)
            .list();
    }

    private static Run run(java.sql.ResultSet rs, int n) throws java.sql.SQLException {
        return new Run(rs.getLong(1), rs.getString(2), rs.getString(3), abbreviate(rs.getString(4)),
            offset(rs.getTimestamp(5)), offset(rs.getTimestamp(6)), rs.getLong(7), rs.getLong(8));
    }

    public JobProgress progress(long executionId) {
        return jobs.progress(executionId);
    }

    /** Launches with "name=value" parameters (one per line); JobControl validates them. */
    public long launch(String actor, String job, String parameterText) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String line : (parameterText == null ? "" : parameterText).split("\\R")) {
            if (line.isBlank()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("parameters are name=value, one per line; got '" + line.strip() + "'");
            }
            parameters.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
        long id = jobs.launch(job, parameters).getId();
        audit.record(actor, "job.launch", job, null, "execution " + id + " " + parameters);
        return id;
    }

    public void stop(String actor, long executionId) {
        var execution = jobs.stop(executionId);
        audit.record(actor, "job.stop", "execution " + executionId, "running", String.valueOf(execution.getStatus()));
    }

    public long restart(String actor, long executionId) {
        long id = jobs.restart(executionId).getId();
        audit.record(actor, "job.restart", "execution " + executionId, "stopped or failed", "restarted as execution " + id);
        return id;
    }

    // --- work queue

    public record QueueDepth(String queue, long queued, long running, long done, long dead) {
    }

    public record Item(long id, String queue, String type, int priority, String state, int attempts, int maxAttempts,
            String lastError, String payload, OffsetDateTime nextAttemptAt, OffsetDateTime updatedAt) {
    }

    public List<QueueDepth> depths() {
        return jdbc.sql("""
                SELECT queue, count(*) FILTER (WHERE state = 'QUEUED'), count(*) FILTER (WHERE state = 'RUNNING'),
                       count(*) FILTER (WHERE state = 'DONE'), count(*) FILTER (WHERE state = 'DEAD')
                FROM work_item GROUP BY queue ORDER BY queue LIMIT 200""")
            .query((rs, n) -> new QueueDepth(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)))
            .list();
    }

    public List<Item> items(String state, String queue, int limit) {
        String s = state == null || state.isBlank() ? "DEAD" : state;
        if (!List.of("QUEUED", "RUNNING", "DONE", "DEAD").contains(s)) {
            throw new IllegalArgumentException("unknown state '" + state + "'");
        }
        return jdbc.sql("""
                SELECT id, queue, type, priority, state, attempts, max_attempts, last_error, payload::text,
                       next_attempt_at, updated_at
                FROM work_item WHERE state = :state AND (:queue = '' OR queue = :queue)
                ORDER BY updated_at DESC, id DESC LIMIT :limit""")
            .param("state", s).param("queue", queue == null ? "" : queue).param("limit", limit)
            .query((rs, n) -> new Item(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5),
                rs.getInt(6), rs.getInt(7), rs.getString(8), abbreviate(rs.getString(9)),
                rs.getObject(10, OffsetDateTime.class), rs.getObject(11, OffsetDateTime.class)))
            .list();
    }

    /** A dead-letter item goes back to the queue with fresh attempts, due now. */
    public void retry(String actor, long id) {
        String before = deadError(id);
        jdbc.sql("""
                UPDATE work_item SET state = 'QUEUED', attempts = 0, next_attempt_at = now(), locked_by = NULL,
                       locked_until = NULL, lease_token = NULL, updated_at = now()
                WHERE id = ? AND state = 'DEAD'""").param(id).update();
        audit.record(actor, "queue.retry", "work item " + id, "DEAD: " + before, "QUEUED");
    }

    /** A dead-letter item is deleted (its last error stays in the audit log). */
    public void discard(String actor, long id) {
        String before = deadError(id);
        jdbc.sql("DELETE FROM work_item WHERE id = ? AND state = 'DEAD'").param(id).update();
        audit.record(actor, "queue.discard", "work item " + id, "DEAD: " + before, null);
    }

    private String deadError(long id) {
        return jdbc.sql("SELECT type || ' in ' || queue || ': ' || COALESCE(last_error, '') FROM work_item "
                + "WHERE id = ? AND state = 'DEAD'")
            .param(id).query(String.class).optional()
            .orElseThrow(() -> new IllegalArgumentException("work item " + id + " is not in dead-letter"));
    }

    private static String abbreviate(String s) {
        return s == null || s.length() <= 500 ? s : s.substring(0, 500) + "…";
    }

    private static OffsetDateTime offset(java.sql.Timestamp t) {
        return t == null ? null : t.toLocalDateTime().atOffset(java.time.ZoneOffset.UTC);
    }
}
