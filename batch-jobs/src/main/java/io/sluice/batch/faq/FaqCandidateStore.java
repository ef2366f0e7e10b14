package io.sluice.batch.faq;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;

/** FAQ candidates in {@code faq_candidate}. */
public class FaqCandidateStore {

    private static final String COLUMNS = "id, question, examples, occurrences, low_tier, negative, status, faq_key, "
        + "reviewed_by, created_at, reviewed_at";

    private final JdbcTemplate jdbc;

    public FaqCandidateStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Candidates, most frequent first; {@code status} null = all. */
    public List<FaqCandidate> list(String status, int limit) {
        if (status == null) {
            return jdbc.query("SELECT " + COLUMNS + " FROM faq_candidate ORDER BY occurrences DESC, id LIMIT ?",
                (rs, n) -> map(rs), limit);
        }
        return jdbc.query("SELECT " + COLUMNS + " FROM faq_candidate WHERE status = ? ORDER BY occurrences DESC, id "
            + "LIMIT ?", (rs, n) -> map(rs), status, limit);
    }

    public Optional<FaqCandidate> find(long id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM faq_candidate WHERE id = ?", (rs, n) -> map(rs), id)
            .stream().findFirst();
    }

    public long insert(String question, List<String> examples, int occurrences, int lowTier, int negative) {
        return jdbc.query(con -> {
            var ps = con.prepareStatement("INSERT INTO faq_candidate (question, examples, occurrences, low_tier, negative) "
                + "VALUES (?, ?, ?, ?, ?) RETURNING id");
            ps.setString(1, question);
            ps.setArray(2, con.createArrayOf("text", examples.toArray()));
            ps.setInt(3, occurrences);
            ps.setInt(4, lowTier);
            ps.setInt(5, negative);
            return ps;
        }, rs -> {
            rs.next();
            return rs.getLong(1);
        });
    }

    /** Refreshes a still-proposed candidate's counts from the latest mining run. */
    public void refresh(long id, int occurrences, int lowTier, int negative) {
        jdbc.update("UPDATE faq_candidate SET occurrences = GREATEST(occurrences, ?), low_tier = GREATEST(low_tier, ?), "
            + "negative = GREATEST(negative, ?) WHERE id = ? AND status = 'PROPOSED'", occurrences, lowTier, negative, id);
    }

    /** Records a review decision; false when the candidate is no longer PROPOSED (someone else decided). */
    public boolean decide(long id, String status, String faqKey, String reviewer) {
        return jdbc.update("UPDATE faq_candidate SET status = ?, faq_key = ?, reviewed_by = ?, reviewed_at = now() "
            + "WHERE id = ? AND status = 'PROPOSED'", status, faqKey, reviewer, id) == 1;
    }

    private static FaqCandidate map(ResultSet rs) throws SQLException {
        Array examples = rs.getArray("examples");
        return new FaqCandidate(rs.getLong("id"), rs.getString("question"),
            examples == null ? List.of() : Arrays.asList((String[]) examples.getArray()), rs.getInt("occurrences"),
            rs.getInt("low_tier"), rs.getInt("negative"), rs.getString("status"), rs.getString("faq_key"),
            rs.getString("reviewed_by"), instant(rs.getTimestamp("created_at")), instant(rs.getTimestamp("reviewed_at")));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
