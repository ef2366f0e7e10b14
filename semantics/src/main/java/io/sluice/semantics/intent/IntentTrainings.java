package io.sluice.semantics.intent;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Intent model trainings in PostgreSQL ({@code intent_training}, V630), so every instance's API and
 * console see the running training, its phase and the last result, and only one training runs in the
 * cluster at a time: a partial unique index admits one {@code running} row. The instance that trains
 * beats a heartbeat; a run whose heartbeat is older than {@code staleAfter} (its instance died) is
 * marked failed by the next request, which may then start.
 */
public class IntentTrainings {

    /** A training as the API and console show it. */
    public record Training(UUID id, String status, String phase, String actor, String instance, Instant startedAt,
            Instant heartbeatAt, Instant finishedAt, Long version, Boolean activated, String decision, String error,
            Integer examples) {
    }

    private static final String COLUMNS = "id, status, phase, actor, instance, started_at, heartbeat_at, finished_at, "
        + "version, activated, decision, error, examples";

    private final JdbcTemplate jdbc;
    private final Duration staleAfter;

    public IntentTrainings(JdbcTemplate jdbc, Duration staleAfter) {
        this.jdbc = jdbc;
        this.staleAfter = staleAfter;
    }

    /**
     * Claims the cluster's one training slot; empty when a training with a live heartbeat runs anywhere.
     * A run whose instance stopped beating is closed as failed first.
     */
    public Optional<Training> start(String actor, String instance) {
        jdbc.update("UPDATE intent_training SET status = 'failed', finished_at = now(), "
            + "error = 'abandoned: the training instance stopped' "
            + "WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => ?)", seconds(staleAfter));
        UUID id = UUID.randomUUID();
        try {
            jdbc.update("INSERT INTO intent_training (id, status, phase, actor, instance) VALUES (?, 'running', 'queued', ?, ?)",
                id, actor, instance);
        } catch (DuplicateKeyException running) {
            return Optional.empty();
        }
        return find(id);
    }

    /** The phase a running training has reached (also its heartbeat). */
    public void phase(UUID id, String phase) {
        jdbc.update("UPDATE intent_training SET phase = ?, heartbeat_at = now() WHERE id = ? AND status = 'running'",
            phase.length() > 40 ? phase.substring(0, 40) : phase, id);
    }

    /** Proof of life while a long phase runs. */
    public void heartbeat(UUID id) {
        jdbc.update("UPDATE intent_training SET heartbeat_at = now() WHERE id = ? AND status = 'running'", id);
    }

    /** @param examples how many examples the training read (training and held-out parts) */
    public void done(UUID id, long version, boolean activated, String decision, int examples) {
        jdbc.update("UPDATE intent_training SET status = 'done', phase = 'done', finished_at = now(), heartbeat_at = now(), "
            + "version = ?, activated = ?, decision = ?, examples = ? WHERE id = ?", version, activated, decision, examples,
            id);
    }

    public void failed(UUID id, String error) {
        jdbc.update("UPDATE intent_training SET status = 'failed', finished_at = now(), heartbeat_at = now(), error = ? "
            + "WHERE id = ?", error, id);
    }

    public Optional<Training> find(UUID id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM intent_training WHERE id = ?", IntentTrainings::row, id).stream()
            .findFirst();
    }

    /** The running training if any, else the newest one. */
    public Optional<Training> current() {
        return jdbc.query("SELECT " + COLUMNS + " FROM intent_training ORDER BY (status = 'running') DESC, started_at DESC "
            + "LIMIT 1", IntentTrainings::row).stream().findFirst();
    }

    /** The newest trainings first. */
    public List<Training> recent(int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM intent_training ORDER BY started_at DESC LIMIT ?", IntentTrainings::row,
            Math.max(1, Math.min(limit, 100)));
    }

    private static Training row(ResultSet rs, int n) throws SQLException {
        long version = rs.getLong("version");
        Long v = rs.wasNull() ? null : version;
        boolean activated = rs.getBoolean("activated");
        Boolean a = rs.wasNull() ? null : activated;
        int examples = rs.getInt("examples");
        Integer e = rs.wasNull() ? null : examples;
        return new Training(rs.getObject("id", UUID.class), rs.getString("status"), rs.getString("phase"),
            rs.getString("actor"), rs.getString("instance"), instant(rs.getTimestamp("started_at")),
            instant(rs.getTimestamp("heartbeat_at")), instant(rs.getTimestamp("finished_at")), v, a,
            rs.getString("decision"), rs.getString("error"), e);
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }
}
