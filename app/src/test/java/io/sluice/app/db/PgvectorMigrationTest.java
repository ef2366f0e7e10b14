package io.sluice.app.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import com.pgvector.PGvector;

import io.sluice.app.support.TestServices;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The migrations against PostgreSQL 17 + pgvector: the vector column, its HNSW index, and a real query. */
class PgvectorMigrationTest {

    @BeforeAll
    static void migrate() {
        Flyway.configure().dataSource(TestServices.databaseUrl(), null, null)
            .locations("filesystem:../db/migration").load().migrate();
    }

    @Test
    void createsAVector512ColumnWithAnHnswCosineIndex() throws SQLException {
        try (Connection db = connect()) {
            assertThat(single(db, """
                SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
                WHERE a.attrelid = 'knowledge_chunk'::regclass AND a.attname = 'embedding'"""))
                .isEqualTo("vector(512)");
            assertThat(single(db, "SELECT indexdef FROM pg_indexes WHERE indexname = 'knowledge_chunk_embedding_hnsw'"))
                .contains("USING hnsw").contains("vector_cosine_ops");
        }
    }

    @Test
    void storesVectorsAndFindsTheNearestByCosineDistance() throws SQLException {
        try (Connection db = connect()) {
            db.setAutoCommit(false);
            PGvector.addVectorType(db);
            long documentId;
            try (PreparedStatement insert = db.prepareStatement("""
                    INSERT INTO knowledge_document (external_id, title, content_type, content_hash)
                    VALUES (?, 'vector test', 'text/plain', repeat('0', 64)) RETURNING id""")) {
                insert.setString(1, "pgvector-test-" + System.nanoTime());
                try (ResultSet rs = insert.executeQuery()) {
                    rs.next();
                    documentId = rs.getLong(1);
                }
            }
            try (PreparedStatement insert = db.prepareStatement(
                    "INSERT INTO knowledge_chunk (document_id, ordinal, content, embedding) VALUES (?, ?, ?, ?)")) {
                for (int axis = 0; axis < 3; axis++) {
                    insert.setLong(1, documentId);
                    insert.setInt(2, axis);
                    insert.setString(3, "axis " + axis);
                    insert.setObject(4, new PGvector(unit(axis)));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            float[] query = unit(1);
            query[0] = 0.2f; // mostly axis 1, a little axis 0
            List<String> nearest = new ArrayList<>();
            try (PreparedStatement select = db.prepareStatement("""
                    SELECT content FROM knowledge_chunk WHERE document_id = ?
                    ORDER BY embedding <=> ? LIMIT 2""")) {
                select.setLong(1, documentId);
                select.setObject(2, new PGvector(query));
                try (ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        nearest.add(rs.getString(1));
                    }
                }
            }
            db.rollback();
            assertThat(nearest).containsExactly("axis 1", "axis 0");
        }
    }

    private static float[] unit(int axis) {
        float[] v = new float[512];
        v[axis] = 1f;
        return v;
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(TestServices.databaseUrl());
    }

    private static String single(Connection db, String sql) throws SQLException {
        try (PreparedStatement statement = db.prepareStatement(sql); ResultSet rs = statement.executeQuery()) {
            assertThat(rs.next()).as("a row for: %s", sql).isTrue();
            return rs.getString(1);
        }
    }
}
