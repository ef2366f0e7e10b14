package io.sluice.semantics.model;

import java.util.List;
import java.util.Optional;

import io.sluice.semantics.model.Activation.Action;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Learned models in PostgreSQL: every version with its evaluation ({@code semantic_model}), the
 * version each kind answers with ({@code semantic_model_current}) and the activation history.
 */
public class SemanticModelStore {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public SemanticModelStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new TransactionTemplate(transactionManager);
    }

    /** Stores a new version (the next number of its kind); it does not answer until activated. */
    public long save(String kind, byte[] payload, String evaluationJson, String note, String createdBy) {
        return tx.execute(s -> {
            // one writer per kind at a time, so version numbers never collide
            jdbc.queryForObject("SELECT pg_advisory_xact_lock(hashtext(?))", Object.class, "semantic_model:" + kind);
            long version = jdbc.queryForObject(
                "SELECT COALESCE(MAX(version), 0) + 1 FROM semantic_model WHERE kind = ?", Long.class, kind);
            jdbc.update("INSERT INTO semantic_model (kind, version, payload, evaluation, note, created_by) "
                + "VALUES (?, ?, ?, CAST(? AS jsonb), ?, ?)", kind, version, payload, evaluationJson, note, createdBy);
            return version;
        });
    }

    public Optional<byte[]> payload(String kind, long version) {
        return jdbc.query("SELECT payload FROM semantic_model WHERE kind = ? AND version = ?",
            (rs, n) -> rs.getBytes(1), kind, version).stream().findFirst();
    }

    public Optional<StoredModel> find(String kind, long version) {
        return jdbc.query(SELECT + " WHERE m.kind = ? AND m.version = ?", this::row, kind, version).stream().findFirst();
    }

    /** The version the cluster answers with for this kind. */
    public Optional<Long> current(String kind) {
        return jdbc.query("SELECT version FROM semantic_model_current WHERE kind = ?", (rs, n) -> rs.getLong(1), kind)
            .stream().findFirst();
    }

    /** Makes the version current and records why, in one transaction. */
    public void setCurrent(String kind, long version, Action action, String actor, String reason) {
        tx.executeWithoutResult(s -> {
            jdbc.update("INSERT INTO semantic_model_current (kind, version) VALUES (?, ?) "
                + "ON CONFLICT (kind) DO UPDATE SET version = EXCLUDED.version, updated_at = now()", kind, version);
            jdbc.update("INSERT INTO semantic_model_activation (kind, version, action, actor, reason) VALUES (?, ?, ?, ?, ?)",
                kind, version, action.name(), actor, reason);
        });
    }

    /** Removes the current version (a rollback past the first activation): the built-in default answers again. */
    public void clearCurrent(String kind, String actor, String reason) {
        tx.executeWithoutResult(s -> {
            jdbc.update("DELETE FROM semantic_model_current WHERE kind = ?", kind);
            jdbc.update("INSERT INTO semantic_model_activation (kind, version, action, actor, reason) "
                + "VALUES (?, NULL, 'ROLLBACK', ?, ?)", kind, actor, reason);
        });
    }

    /**
     * The versions activated and not rolled back, oldest first: activations push, a rollback pops. The
     * last one is the current version; the one before it is what a rollback puts back.
     */
    public List<Long> activationStack(String kind) {
        List<Long> stack = new java.util.ArrayList<>();
        jdbc.query("SELECT version, action FROM semantic_model_activation WHERE kind = ? ORDER BY id", rs -> {
            if (Action.valueOf(rs.getString(2)) == Action.ROLLBACK) {
                if (!stack.isEmpty()) {
                    stack.remove(stack.size() - 1);
                }
            } else {
                stack.add(rs.getLong(1));
            }
        }, kind);
        return stack;
    }

    /** Kept versions of a kind, newest first. */
    public List<StoredModel> versions(String kind, int limit) {
        return jdbc.query(SELECT + " WHERE m.kind = ? ORDER BY m.version DESC LIMIT ?", this::row, kind, limit);
    }

    /** The activation history of a kind, newest first. */
    public List<Activation> history(String kind, int limit) {
        return jdbc.query("SELECT kind, version, action, actor, reason, created_at FROM semantic_model_activation "
                + "WHERE kind = ? ORDER BY id DESC LIMIT ?",
            (rs, n) -> new Activation(rs.getString(1), (Long) rs.getObject(2), Action.valueOf(rs.getString(3)), rs.getString(4),
                rs.getString(5), rs.getTimestamp(6).toInstant()), kind, limit);
    }

    /** Deletes all but the newest {@code keep} versions of a kind (never the current one, never history). */
    public int prune(String kind, int keep) {
        return jdbc.update("""
            DELETE FROM semantic_model m WHERE m.kind = ? AND m.version NOT IN (
                SELECT version FROM semantic_model WHERE kind = ? ORDER BY version DESC LIMIT ?)
            AND m.version <> COALESCE((SELECT version FROM semantic_model_current WHERE kind = ?), -1)
            AND NOT EXISTS (SELECT 1 FROM semantic_model_activation a WHERE a.kind = m.kind AND a.version = m.version)""",
            kind, kind, keep, kind);
    }

    private static final String SELECT = """
        SELECT m.kind, m.version, m.evaluation::text, m.note, m.created_by, m.created_at,
               m.version = COALESCE((SELECT c.version FROM semantic_model_current c WHERE c.kind = m.kind), -1) AS current
        FROM semantic_model m""";

    private StoredModel row(java.sql.ResultSet rs, int n) throws java.sql.SQLException {
        return new StoredModel(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
            rs.getTimestamp(6).toInstant(), rs.getBoolean(7));
    }
}
