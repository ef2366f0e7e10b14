package io.sluice.knowledge.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.store.StoredChunk;
import io.sluice.knowledge.support.TestDatabase;

import com.pgvector.PGvector;

import org.junit.jupiter.api.Test;

/**
 * Issue 18 item 12: vectors go to PostgreSQL as pgvector-jdbc's {@link PGvector} parameters (typed by the
 * driver as {@code vector}), not as text with a {@code ?::vector} cast. A chunk written by the repository reads
 * back through the same type exactly, a chunk edit replaces it, and the HNSW searcher finds it with a typed
 * query vector. Needs the pgvector extension (external mode); skipped on a database without it.
 */
class PgvectorTypeTest {

    final KnowledgeRepository repository = new KnowledgeRepository(TestDatabase.get());

    static float[] axis(int i, float rest) {
        float[] v = new float[512];
        java.util.Arrays.fill(v, rest);
        v[i] = 1f;
        return v;
    }

    List<float[]> stored(String externalId) throws Exception {
        try (Connection db = TestDatabase.get().getConnection()) {
            PGvector.addVectorType(db);
            try (PreparedStatement ps = db.prepareStatement("""
                    SELECT c.embedding FROM knowledge_chunk c JOIN knowledge_document d ON d.id = c.document_id
                    WHERE d.external_id = ? ORDER BY c.ordinal""")) {
                ps.setString(1, externalId);
                List<float[]> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(((PGvector) rs.getObject(1)).toArray());
                    }
                }
                return out;
            }
        }
    }

    @Test
    void vectorsAreWrittenAndSearchedAsTypedPgvectorParameters() throws Exception {
        assumeThat(repository.hasVectorColumn()).as("pgvector installed").isTrue();
        String id = "pgvector-type-" + UUID.randomUUID();
        float[] first = axis(7, 0.001f);
        float[] second = axis(300, -0.0025f);
        first[11] = 0.123456789f;                          // a float that a short text form would round
        Instant now = Instant.now();
        repository.replace(new KnowledgeRepository.DocumentMeta(id, "typed vectors", null, "text/plain", "test-pgvector",
            List.of(), null, null), "0".repeat(64), List.of(
                new StoredChunk(id, "typed vectors", null, "test-pgvector", now, null, null, 0, null, "first", first),
                new StoredChunk(id, "typed vectors", null, "test-pgvector", now, null, null, 1, null, "second", second)));

        assertThat(stored(id)).satisfiesExactly(
            v -> assertThat(v).containsExactly(first),
            v -> assertThat(v).containsExactly(second));

        float[] edited = axis(9, 0.002f);
        assertThat(repository.editChunk(id, 1, "second, edited", edited)).isTrue();
        assertThat(stored(id).get(1)).containsExactly(edited);

        List<Passage> found = new PgVectorSearcher(TestDatabase.get(), 40).searchExact(axis(9, 0.002f),
            new SearchFilter("test-pgvector", Instant.now()), 1);
        assertThat(found).singleElement().satisfies(p -> {
            assertThat(p.text()).contains("second, edited");
            assertThat(p.score()).isGreaterThan(0.999);
        });
        repository.delete(id);
    }
}
