package io.sluice.semantics.pairs;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The review queue: a sample of served semantic-cache (L2) hits. An operator labels each right (one
 * answer serves both) or wrong; the label becomes a labelled pair the next training uses.
 */
public class HitReviews {

    /** One served hit: the stored (matched) question, the asked one, and how it was decided. */
    public record Item(long id, String asked, String matched, double cosine, Double probability, String level,
            long modelVersion, String label, String labelledBy, Instant createdAt) {
    }

    private final JdbcTemplate jdbc;
    private final PairStore pairs;
    private final TransactionTemplate tx;
    private final double sampleRate;
    private final int keep;

    public HitReviews(JdbcTemplate jdbc, PairStore pairs, PlatformTransactionManager transactionManager,
            double sampleRate, int keep) {
        this.jdbc = jdbc;
        this.pairs = pairs;
        this.tx = new TransactionTemplate(transactionManager);
        this.sampleRate = sampleRate;
        this.keep = keep;
    }

    /** Whether this served hit is sampled for review (decided before any database work). */
    public boolean sampled() {
        return sampleRate > 0 && ThreadLocalRandom.current().nextDouble() < sampleRate;
    }

    public void record(String asked, String matched, double cosine, Double probability, String level,
            long modelVersion, Long clientId) {
        jdbc.update("INSERT INTO cache_hit_review (asked, matched, cosine, probability, level, model_version, client_id) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?)", cut(asked), cut(matched), cosine, probability, level, modelVersion,
            clientId);
        // keep the queue bounded: the oldest unlabelled items go first
        jdbc.update("DELETE FROM cache_hit_review WHERE label IS NULL AND id <= (SELECT id FROM cache_hit_review "
            + "WHERE label IS NULL ORDER BY id DESC OFFSET ? LIMIT 1)", keep);
    }

    /** Newest first; {@code open} = only the ones not labelled yet. */
    public List<Item> recent(boolean open, int limit) {
        return jdbc.query("SELECT id, asked, matched, cosine, probability, level, model_version, label, labelled_by, "
                + "created_at FROM cache_hit_review " + (open ? "WHERE label IS NULL " : "") + "ORDER BY id DESC LIMIT ?",
            (rs, n) -> new Item(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getDouble(4),
                (Double) rs.getObject(5), rs.getString(6), rs.getLong(7), rs.getString(8), rs.getString(9),
                rs.getTimestamp(10).toInstant()), limit);
    }

    public Optional<Item> find(long id) {
        return jdbc.query("SELECT id, asked, matched, cosine, probability, level, model_version, label, labelled_by, "
                + "created_at FROM cache_hit_review WHERE id = ?",
            (rs, n) -> new Item(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getDouble(4),
                (Double) rs.getObject(5), rs.getString(6), rs.getLong(7), rs.getString(8), rs.getString(9),
                rs.getTimestamp(10).toInstant()), id).stream().findFirst();
    }

    /** Labels a served hit and stores it as a labelled pair (cached question first), in one transaction. */
    public Item label(long id, boolean right, String actor) {
        return tx.execute(s -> {
            Item item = find(id).orElseThrow(() -> new java.util.NoSuchElementException("no such review item"));
            jdbc.update("UPDATE cache_hit_review SET label = ?, labelled_by = ?, labelled_at = now() WHERE id = ?",
                right ? "right" : "wrong", actor, id);
            pairs.add(new LabelledPair(item.matched(), item.asked(), right, null, null, null, null, "review"), actor);
            return find(id).orElseThrow();
        });
    }

    private static String cut(String s) {
        return s.length() <= PairFile.MAX_CHARS ? s : s.substring(0, PairFile.MAX_CHARS);
    }
}
