package io.sluice.knowledge.faq;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class FaqRepository {

    private final JdbcClient jdbc;

    public FaqRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Entries valid now (no validity window, or inside it). */
    public List<FaqEntry> findAllValid() {
        return jdbc.sql("""
                SELECT id, question, phrasings, answer, category FROM faq_entry
                WHERE (valid_from IS NULL OR valid_from <= now())
                  AND (valid_until IS NULL OR valid_until > now())
                ORDER BY id""")
            .query((rs, n) -> map(rs))
            .list();
    }

    private static FaqEntry map(ResultSet rs) throws SQLException {
        Array phrasings = rs.getArray("phrasings");
        List<String> list = phrasings == null ? List.of() : Arrays.asList((String[]) phrasings.getArray());
        return new FaqEntry(rs.getLong("id"), rs.getString("question"), list, rs.getString("answer"),
            rs.getString("category"));
    }
}
