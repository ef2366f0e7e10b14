package io.sluice.knowledge.vector;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.sluice.knowledge.chain.Freshness;
import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.chain.Source;

import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The vector tier in external mode: pgvector HNSW (cosine) over {@code knowledge_chunk.embedding},
 * filtered by category and validity. {@code efSearch} trades recall for latency.
 */
public class PgVectorSearcher {

    public static final String TIER = "vector:pgvector";

    private final JdbcTemplate jdbc;
    private final int efSearch;
    private volatile Boolean iterativeScan;

    public PgVectorSearcher(DataSource dataSource, int efSearch) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.efSearch = efSearch;
    }

    public List<Passage> search(float[] vector, SearchFilter filter, int k) {
        return run(vector, filter, k, false);
    }

    /** Exact (sequential scan) nearest neighbours: the ground truth for measuring HNSW recall. */
    public List<Passage> searchExact(float[] vector, SearchFilter filter, int k) {
        return run(vector, filter, k, true);
    }

    private boolean supportsIterativeScan(Statement st) throws java.sql.SQLException {
        Boolean v = iterativeScan;
        if (v == null) {
            try (ResultSet rs = st.executeQuery("SELECT extversion FROM pg_extension WHERE extname = 'vector'")) {
                String version = rs.next() ? rs.getString(1) : "0";
                String[] parts = version.split("\\.");
                int major = Integer.parseInt(parts[0]);
                int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
                v = major > 0 || minor >= 8;
            }
            iterativeScan = v;
        }
        return v;
    }

    private List<Passage> run(float[] vector, SearchFilter filter, int k, boolean exact) {
        // typed as pgvector's own JDBC type: the driver binds it as a vector parameter, no text cast in SQL
        com.pgvector.PGvector typed = new com.pgvector.PGvector(vector);
        String sql = """
            SELECT d.external_id, d.title, d.source_url, d.category, d.ingested_at, d.valid_until,
                   c.heading, c.content, 1 - (c.embedding <=> ?) AS score
            FROM knowledge_chunk c JOIN knowledge_document d ON d.id = c.document_id
            WHERE c.embedding IS NOT NULL AND NOT c.disabled
              AND (d.valid_from IS NULL OR d.valid_from <= ?) AND (d.valid_until IS NULL OR d.valid_until > ?)
              AND (?::text IS NULL OR d.category = ?)
            ORDER BY c.embedding <=> ?
            LIMIT ?""";
        // FAQ mirrors are collapsed to one row per entry below, so fetch more rows than k
        int limit = k * Source.FAQ_COLLAPSE_OVERFETCH;
        return jdbc.execute((ConnectionCallback<List<Passage>>) con -> {
            boolean auto = con.getAutoCommit();
            con.setAutoCommit(false);
            try {
                try (Statement st = con.createStatement()) {
                    // one round trip for all settings of this transaction
                    // ef_search as configured; the iterative scan below fetches rows beyond it (filters, FAQ collapse)
                    StringBuilder set = new StringBuilder("SET LOCAL hnsw.ef_search = " + Math.max(efSearch, k));
                    if (exact) {
                        set.append("; SET LOCAL enable_indexscan = off");
                    } else {
                        // Plan with the actual vector (the prepared statement's generic plan is a sequential scan)
                        // and never fall back to one: on a table of ~10^4 rows the planner prefers a sequential
                        // scan (≈ 30 ms) over HNSW (≈ 2 ms) as soon as ef_search is above ~40.
                        set.append("; SET LOCAL plan_cache_mode = force_custom_plan; SET LOCAL enable_seqscan = off");
                        if (supportsIterativeScan(st)) {
                            // pgvector >= 0.8: keep scanning the HNSW graph until enough rows pass the filter
                            // (and for the rows beyond ef_search that the FAQ collapse needs)
                            set.append("; SET LOCAL hnsw.iterative_scan = strict_order");
                        }
                    }
                    st.execute(set.toString());
                }
                List<Passage> out = new ArrayList<>();
                java.util.Set<String> faqSeen = new java.util.HashSet<>();
                try (PreparedStatement ps = con.prepareStatement(sql)) {
                    Timestamp at = Timestamp.from(filter.at());
                    ps.setObject(1, typed);
                    ps.setTimestamp(2, at);
                    ps.setTimestamp(3, at);
                    ps.setString(4, filter.category());
                    ps.setString(5, filter.category());
                    ps.setObject(6, typed);
                    ps.setInt(7, limit);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next() && out.size() < k) {
                            String documentId = rs.getString(1);
                            if (Source.faqKeyOf(documentId) != null && !faqSeen.add(documentId)) {
                                continue;
                            }
                            Timestamp until = rs.getTimestamp(6);
                            out.add(new Passage(TIER, rs.getDouble(9), rs.getString(8), null, rs.getString(4),
                                new Source(documentId, rs.getString(2), rs.getString(7), rs.getString(3),
                                    Source.faqKeyOf(documentId)),
                                new Freshness(rs.getTimestamp(5).toInstant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS), until == null ? null : until.toInstant())));
                        }
                    }
                }
                con.commit();
                return out;
            } catch (java.sql.SQLException | RuntimeException e) {
                con.rollback();
                throw e;
            } finally {
                con.setAutoCommit(auto);
            }
        });
    }
}
