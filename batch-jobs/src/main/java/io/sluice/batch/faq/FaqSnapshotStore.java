package io.sluice.batch.faq;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Published FAQ snapshots in PostgreSQL ({@code faq_snapshot_blob}) and the version the cluster
 * answers with ({@code faq_snapshot_current}), so every instance can load what was announced.
 */
public class FaqSnapshotStore {

    /** A kept version (without its bytes). */
    public record Version(long version, int entries, String checksum, Double selfHit, Instant createdAt,
            boolean current) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public FaqSnapshotStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new TransactionTemplate(transactionManager);
    }

    /** Stores the version and makes it the cluster's current one, in one transaction. */
    public void saveAsCurrent(long version, byte[] content, int entries, String checksum, double selfHit) {
        tx.executeWithoutResult(s -> {
            jdbc.update("INSERT INTO faq_snapshot_blob (version, content, entry_count, checksum, self_hit) "
                + "VALUES (?, ?, ?, ?, ?) ON CONFLICT (version) DO NOTHING", version, content, entries, checksum, selfHit);
            setCurrent(version);
        });
    }

    public void setCurrent(long version) {
        jdbc.update("INSERT INTO faq_snapshot_current (id, version) VALUES (1, ?) "
            + "ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, updated_at = now()", version);
    }

    public Optional<Long> current() {
        return jdbc.query("SELECT version FROM faq_snapshot_current WHERE id = 1", (rs, n) -> rs.getLong(1))
            .stream().findFirst();
    }

    public Optional<byte[]> content(long version) {
        return jdbc.query("SELECT content FROM faq_snapshot_blob WHERE version = ?", (rs, n) -> rs.getBytes(1), version)
            .stream().findFirst();
    }

    /** Kept versions, newest first. */
    public List<Version> versions() {
        return jdbc.query("""
            SELECT b.version, b.entry_count, b.checksum, b.self_hit, b.created_at,
                   b.version = (SELECT version FROM faq_snapshot_current WHERE id = 1) AS current
            FROM faq_snapshot_blob b ORDER BY b.version DESC""",
            (rs, n) -> new Version(rs.getLong(1), rs.getInt(2), rs.getString(3), (Double) rs.getObject(4),
                rs.getTimestamp(5).toInstant(), rs.getBoolean(6)));
    }

    /** Deletes all but the newest {@code keep} versions (never the current one). */
    public int prune(int keep) {
        return jdbc.update("""
            DELETE FROM faq_snapshot_blob WHERE version NOT IN (
                SELECT version FROM faq_snapshot_blob ORDER BY version DESC LIMIT ?)
            AND version <> COALESCE((SELECT version FROM faq_snapshot_current WHERE id = 1), -1)""", keep);
    }
}
