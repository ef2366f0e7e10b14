package io.sluice.knowledge.faq;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;

/** FAQ entries in PostgreSQL ({@code faq_entry}, external keys from V200). */
public class FaqRepository {

    private static final String COLUMNS =
        "id, external_id, question, phrasings, answer, category, tags, valid_from, valid_until, updated_at";

    private final JdbcTemplate jdbc;
    private final org.springframework.transaction.support.TransactionTemplate tx;

    public FaqRepository(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.tx = new org.springframework.transaction.support.TransactionTemplate(
            new org.springframework.jdbc.datasource.DataSourceTransactionManager(dataSource));
    }

    /** Runs {@code work} in one transaction (the entry, its mirror document and its index write together). */
    public <T> T inTransaction(java.util.function.Supplier<T> work) {
        return tx.execute(status -> work.get());
    }

    /** Entries valid now (no validity window, or inside it). */
    public List<FaqEntry> findAllValid() {
        return jdbc.query("SELECT " + COLUMNS + " FROM faq_entry "
            + "WHERE (valid_from IS NULL OR valid_from <= now()) AND (valid_until IS NULL OR valid_until > now()) "
            + "ORDER BY id", (rs, n) -> map(rs));
    }

    public List<FaqEntry> findAll() {
        return jdbc.query("SELECT " + COLUMNS + " FROM faq_entry ORDER BY id", (rs, n) -> map(rs));
    }

    public Optional<FaqEntry> findByKey(String key) {
        return jdbc.query("SELECT " + COLUMNS + " FROM faq_entry WHERE external_id = ?", (rs, n) -> map(rs), key)
            .stream().findFirst();
    }

    public Optional<FaqEntry> findById(long id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM faq_entry WHERE id = ?", (rs, n) -> map(rs), id)
            .stream().findFirst();
    }

    /**
     * Inserts or updates by key. A row without a key but with the same question (the V4 seed) is
     * adopted: it gets the key and the new content instead of a duplicate being added.
     */
    public FaqEntry upsert(FaqEntry e) {
        Optional<FaqEntry> byKey = findByKey(e.key());
        Optional<FaqEntry> existing = byKey.isPresent() ? byKey : jdbc.query("SELECT " + COLUMNS + " FROM faq_entry WHERE external_id IS NULL AND question = ? "
                + "ORDER BY id LIMIT 1", (rs, n) -> map(rs), e.question()).stream().findFirst();
        if (existing.isPresent()) {
            jdbc.update(con -> {
                var ps = con.prepareStatement("UPDATE faq_entry SET external_id = ?, question = ?, phrasings = ?, "
                    + "answer = ?, category = ?, tags = ?, valid_from = ?, valid_until = ?, updated_at = now() "
                    + "WHERE id = ?");
                bind(ps, e, con);
                ps.setLong(9, existing.get().id());
                return ps;
            });
            return findById(existing.get().id()).orElseThrow();
        }
        Long id = jdbc.query(con -> {
            var ps = con.prepareStatement("INSERT INTO faq_entry (external_id, question, phrasings, answer, category, "
                + "tags, valid_from, valid_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id");
            bind(ps, e, con);
            return ps;
        }, rs -> rs.next() ? rs.getLong(1) : null);
        return findById(id).orElseThrow();
    }

    private static void bind(java.sql.PreparedStatement ps, FaqEntry e, java.sql.Connection con) throws SQLException {
        ps.setString(1, e.key().startsWith("#") ? null : e.key());
        ps.setString(2, e.question());
        ps.setArray(3, con.createArrayOf("text", e.phrasings().toArray()));
        ps.setString(4, e.answer());
        ps.setString(5, e.category());
        ps.setArray(6, con.createArrayOf("text", e.tags().toArray()));
        ps.setTimestamp(7, e.validFrom() == null ? null : Timestamp.from(e.validFrom()));
        ps.setTimestamp(8, e.validUntil() == null ? null : Timestamp.from(e.validUntil()));
    }

    public boolean deleteByKey(String key) {
        if (key.startsWith("#")) {
            return jdbc.update("DELETE FROM faq_entry WHERE id = ?", Long.parseLong(key.substring(1))) > 0;
        }
        return jdbc.update("DELETE FROM faq_entry WHERE external_id = ?", key) > 0;
    }

    /** Records a snapshot's life cycle in {@code faq_snapshot} (BUILT, PUBLISHED, REJECTED, RETIRED). */
    public void recordSnapshot(long version, int entries, String checksum, String status, String detail) {
        jdbc.update("""
            INSERT INTO faq_snapshot (version, entry_count, checksum, status, detail, published_at)
            VALUES (?, ?, ?, ?, ?, CASE WHEN ? = 'PUBLISHED' THEN now() END)
            ON CONFLICT (version) DO UPDATE SET status = EXCLUDED.status, detail = EXCLUDED.detail,
                published_at = COALESCE(faq_snapshot.published_at, EXCLUDED.published_at)""",
            version, entries, checksum, status, detail, status);
        if ("PUBLISHED".equals(status)) {
            jdbc.update("UPDATE faq_snapshot SET status = 'RETIRED' WHERE status = 'PUBLISHED' AND version <> ?",
                version);
        }
    }

    private static FaqEntry map(ResultSet rs) throws SQLException {
        return new FaqEntry(rs.getLong("id"), rs.getString("external_id"), rs.getString("question"),
            strings(rs.getArray("phrasings")), rs.getString("answer"), rs.getString("category"),
            strings(rs.getArray("tags")), instant(rs.getTimestamp("valid_from")),
            instant(rs.getTimestamp("valid_until")), instant(rs.getTimestamp("updated_at")));
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
