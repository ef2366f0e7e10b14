package io.sluice.semantics.pairs;

import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The operator's labelled pairs ({@code semantic_pair}); re-labelling a pair replaces its label. */
public class PairStore {

    /** Counts by label and source, for the API and the console. */
    public record Summary(long pairs, long same, long different, long fromImport, long fromReview) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public PairStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new TransactionTemplate(transactionManager);
    }

    /**
     * Stores all pairs in one transaction (all or nothing).
     *
     * @param replace true = the earlier imported pairs are dropped first (reviewed ones stay)
     * @return how many pairs were written
     */
    public int importAll(List<LabelledPair> pairs, boolean replace, String importId, String owner) {
        return tx.execute(s -> {
            if (replace) {
                jdbc.update("DELETE FROM semantic_pair WHERE source = 'import'");
            }
            int n = 0;
            for (LabelledPair p : pairs) {
                n += upsert(p, importId, owner);
            }
            return n;
        });
    }

    public void add(LabelledPair pair, String owner) {
        upsert(pair, null, owner);
    }

    private int upsert(LabelledPair p, String importId, String owner) {
        return jdbc.update("""
            INSERT INTO semantic_pair (question_a, question_b, same_answer, intent_a, intent_b, faq_a, faq_b, source,
                import_id, owner)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (question_a, question_b) DO UPDATE SET same_answer = EXCLUDED.same_answer,
                intent_a = EXCLUDED.intent_a, intent_b = EXCLUDED.intent_b, faq_a = EXCLUDED.faq_a,
                faq_b = EXCLUDED.faq_b, source = EXCLUDED.source, import_id = EXCLUDED.import_id,
                owner = EXCLUDED.owner, updated_at = now()""",
            p.a(), p.b(), p.same(), p.intentA(), p.intentB(), p.faqA(), p.faqB(), p.source(), importId, owner);
    }

    public List<LabelledPair> all() {
        return jdbc.query("SELECT question_a, question_b, same_answer, intent_a, intent_b, faq_a, faq_b, source "
                + "FROM semantic_pair ORDER BY id",
            (rs, n) -> new LabelledPair(rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getString(4),
                rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8)));
    }

    public Summary summary() {
        return jdbc.queryForObject("""
            SELECT count(*), count(*) FILTER (WHERE same_answer), count(*) FILTER (WHERE NOT same_answer),
                   count(*) FILTER (WHERE source = 'import'), count(*) FILTER (WHERE source = 'review')
            FROM semantic_pair""", (rs, n) -> new Summary(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
            rs.getLong(5)));
    }

    /** Deletes every pair of a source ({@code import} or {@code review}); returns how many. */
    public int deleteSource(String source) {
        return jdbc.update("DELETE FROM semantic_pair WHERE source = ?", source);
    }
}
