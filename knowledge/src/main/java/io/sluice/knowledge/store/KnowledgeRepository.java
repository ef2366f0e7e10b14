package io.sluice.knowledge.store;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;


import com.pgvector.PGvector;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Documents and chunks in PostgreSQL. Where pgvector exists (external mode) chunk embeddings are
 * stored in {@code knowledge_chunk.embedding} for the HNSW vector tier.
 */
public class KnowledgeRepository {

    /** A stored document's identity and version. */
    public record DocumentRow(long id, String externalId, String title, String contentHash, int version,
            Instant ingestedAt, int chunkCount) {
    }

    /** What a document is, apart from its chunks. */
    public record DocumentMeta(String externalId, String title, String sourceUrl, String contentType,
            String category, List<String> tags, Instant validFrom, Instant validUntil) {
    }

    /** One chunk as the console's chunk view shows it. */
    public record ChunkRow(int ordinal, String heading, String content, boolean disabled, Instant editedAt) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private volatile Boolean vectorColumn;

    public KnowledgeRepository(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    /**
     * Runs {@code work} in one database transaction: every write of this repository (and any other JDBC
     * code on the same data source) inside it commits or rolls back together. Ingestion puts the local
     * index write last inside it, so a failing index leaves the database as it was.
     */
    public <T> T inTransaction(java.util.function.Supplier<T> work) {
        return tx.execute(status -> work.get());
    }

    /** True when {@code knowledge_chunk.embedding} exists (pgvector installed). */
    public boolean hasVectorColumn() {
        Boolean v = vectorColumn;
        if (v == null) {
            Integer n = jdbc.queryForObject("""
                SELECT count(*) FROM information_schema.columns
                WHERE table_name = 'knowledge_chunk' AND column_name = 'embedding'
                  AND table_schema = current_schema()""", Integer.class);
            v = n != null && n > 0;
            vectorColumn = v;
        }
        return v;
    }

    public Optional<DocumentRow> find(String externalId) {
        return jdbc.query("""
                SELECT d.id, d.external_id, d.title, d.content_hash, d.version, d.ingested_at,
                       (SELECT count(*) FROM knowledge_chunk c WHERE c.document_id = d.id) AS chunks
                FROM knowledge_document d WHERE d.external_id = ?""",
            (rs, n) -> new DocumentRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getInt(5), rs.getTimestamp(6).toInstant(), rs.getInt(7)), externalId)
            .stream().findFirst();
    }

    public List<DocumentRow> list(String externalIdPrefix, int limit) {
        return jdbc.query("""
                SELECT d.id, d.external_id, d.title, d.content_hash, d.version, d.ingested_at,
                       (SELECT count(*) FROM knowledge_chunk c WHERE c.document_id = d.id) AS chunks
                FROM knowledge_document d WHERE d.external_id LIKE ? ORDER BY d.external_id LIMIT ?""",
            (rs, n) -> new DocumentRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getInt(5), rs.getTimestamp(6).toInstant(), rs.getInt(7)),
            (externalIdPrefix == null ? "" : externalIdPrefix.replace("%", "\\%")) + "%", limit);
    }

    public int countDocuments(String externalIdPrefix) {
        Integer n = jdbc.queryForObject("SELECT count(*) FROM knowledge_document WHERE external_id LIKE ?",
            Integer.class, externalIdPrefix.replace("%", "\\%") + "%");
        return n == null ? 0 : n;
    }

    /**
     * Creates or replaces the document and all its chunks in one transaction: concurrent readers see
     * the old chunks until the commit, then the new ones.
     */
    public DocumentRow replace(DocumentMeta meta, String contentHash, List<StoredChunk> chunks) {
        boolean vectors = hasVectorColumn();
        return tx.execute(status -> {
            DocumentRow row = jdbc.query("""
                    INSERT INTO knowledge_document (external_id, title, source_url, content_type, content_hash,
                        category, tags, valid_from, valid_until, ingested_at, version)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, now(), 1)
                    ON CONFLICT (external_id) DO UPDATE SET title = EXCLUDED.title,
                        source_url = EXCLUDED.source_url, content_type = EXCLUDED.content_type,
                        content_hash = EXCLUDED.content_hash, category = EXCLUDED.category, tags = EXCLUDED.tags,
                        valid_from = EXCLUDED.valid_from, valid_until = EXCLUDED.valid_until,
                        ingested_at = now(), version = knowledge_document.version + 1
                    RETURNING id, version, ingested_at""",
                ps -> {
                    ps.setString(1, meta.externalId());
                    ps.setString(2, truncate(meta.title(), 500));
                    ps.setString(3, meta.sourceUrl());
                    ps.setString(4, meta.contentType());
                    ps.setString(5, contentHash);
                    ps.setString(6, meta.category());
                    Array tags = ps.getConnection().createArrayOf("text",
                        (meta.tags() == null ? List.<String>of() : meta.tags()).toArray());
                    ps.setArray(7, tags);
                    ps.setTimestamp(8, ts(meta.validFrom()));
                    ps.setTimestamp(9, ts(meta.validUntil()));
                },
                (rs, n) -> new DocumentRow(rs.getLong(1), meta.externalId(), meta.title(), contentHash, rs.getInt(2),
                    rs.getTimestamp(3).toInstant(), chunks.size())).get(0);
            // a chunk an operator disabled stays disabled when the same text comes back in a new version
            List<String> disabledTexts = jdbc.queryForList(
                "SELECT md5(content) FROM knowledge_chunk WHERE document_id = ? AND disabled", String.class, row.id());
            jdbc.update("DELETE FROM knowledge_chunk WHERE document_id = ?", row.id());
            String sql = vectors
                ? "INSERT INTO knowledge_chunk (document_id, ordinal, heading, content, token_count, embedding) "
                    + "VALUES (?, ?, ?, ?, ?, ?)"
                : "INSERT INTO knowledge_chunk (document_id, ordinal, heading, content, token_count) VALUES (?, ?, ?, ?, ?)";
            jdbc.batchUpdate(sql, chunks, 100, (PreparedStatement ps, StoredChunk c) -> {
                ps.setLong(1, row.id());
                ps.setInt(2, c.ordinal());
                ps.setString(3, truncate(c.heading(), 1000));
                ps.setString(4, c.content());
                ps.setInt(5, c.content().length());
                if (vectors) {
                    if (c.embedding() == null) {
                        ps.setNull(6, java.sql.Types.OTHER);
                    } else {
                        ps.setObject(6, new PGvector(c.embedding()));
                    }
                }
            });
            if (!disabledTexts.isEmpty()) {
                jdbc.update(con -> {
                    PreparedStatement ps = con.prepareStatement(
                        "UPDATE knowledge_chunk SET disabled = true WHERE document_id = ? AND md5(content) = ANY (?)");
                    ps.setLong(1, row.id());
                    ps.setArray(2, con.createArrayOf("text", disabledTexts.toArray()));
                    return ps;
                });
            }
            return row;
        });
    }

    /** Deletes the document and (by cascade) its chunks; false when there was none. */
    public boolean delete(String externalId) {
        return jdbc.update("DELETE FROM knowledge_document WHERE external_id = ?", externalId) > 0;
    }

    /** The document's chunks in order, disabled ones included (the console's chunk view). */
    public List<ChunkRow> chunks(String externalId) {
        return jdbc.query("SELECT c.ordinal, c.heading, c.content, c.disabled, c.edited_at FROM knowledge_chunk c "
                + "JOIN knowledge_document d ON d.id = c.document_id WHERE d.external_id = ? ORDER BY c.ordinal",
            (rs, n) -> new ChunkRow(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getBoolean(4),
                instant(rs.getTimestamp(5))), externalId);
    }

    /** Ordinals of the document's disabled chunks (kept out of the local index). */
    public java.util.Set<Integer> disabledOrdinals(String externalId) {
        return new java.util.HashSet<>(jdbc.queryForList("SELECT c.ordinal FROM knowledge_chunk c "
            + "JOIN knowledge_document d ON d.id = c.document_id WHERE d.external_id = ? AND c.disabled",
            Integer.class, externalId));
    }

    /** One chunk with its document's metadata, as the tiers index it (embedding not read); empty when none. */
    public Optional<StoredChunk> chunk(String externalId, int ordinal) {
        return jdbc.query("SELECT d.external_id, d.title, d.source_url, d.category, d.ingested_at, d.valid_from, "
                + "d.valid_until, c.ordinal, c.heading, c.content FROM knowledge_chunk c "
                + "JOIN knowledge_document d ON d.id = c.document_id WHERE d.external_id = ? AND c.ordinal = ?",
            (rs, n) -> new StoredChunk(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                instant(rs.getTimestamp(5)), instant(rs.getTimestamp(6)), instant(rs.getTimestamp(7)),
                rs.getInt(8), rs.getString(9), rs.getString(10), null), externalId, ordinal).stream().findFirst();
    }

    /**
     * Sets the chunk's text (an operator's correction) and its new embedding where pgvector stores one;
     * false when there is no such chunk.
     */
    public boolean editChunk(String externalId, int ordinal, String content, float[] embedding) {
        boolean vectors = hasVectorColumn();
        return jdbc.update("UPDATE knowledge_chunk c SET content = ?, token_count = ?, edited_at = now()"
                + (vectors ? ", embedding = ?" : "")
                + " FROM knowledge_document d WHERE d.id = c.document_id AND d.external_id = ? AND c.ordinal = ?",
            ps -> {
                int i = 1;
                ps.setString(i++, content);
                ps.setInt(i++, content.length());
                if (vectors) {
                    ps.setObject(i++, new PGvector(embedding));
                }
                ps.setString(i++, externalId);
                ps.setInt(i, ordinal);
            }) > 0;
    }

    /**
     * Takes the chunk out of retrieval or puts it back (with a fresh embedding where pgvector stores one;
     * null keeps the stored one); false when there is no such chunk.
     */
    public boolean setDisabled(String externalId, int ordinal, boolean disabled, float[] embedding) {
        boolean withVector = hasVectorColumn() && embedding != null;
        return jdbc.update("UPDATE knowledge_chunk c SET disabled = ?" + (withVector ? ", embedding = ?" : "")
                + " FROM knowledge_document d WHERE d.id = c.document_id AND d.external_id = ? AND c.ordinal = ?",
            ps -> {
                int i = 1;
                ps.setBoolean(i++, disabled);
                if (withVector) {
                    ps.setObject(i++, new PGvector(embedding));
                }
                ps.setString(i++, externalId);
                ps.setInt(i, ordinal);
            }) > 0;
    }

    /**
     * Every enabled chunk with its document metadata, for rebuilding the local index; embeddings when
     * stored. Disabled chunks are left out (and so out of a rebuilt index).
     */
    public List<StoredChunk> allChunks() {
        boolean vectors = hasVectorColumn();
        List<StoredChunk> out = new ArrayList<>();
        jdbc.query("SELECT d.external_id, d.title, d.source_url, d.category, d.ingested_at, d.valid_from, "
                + "d.valid_until, c.ordinal, c.heading, c.content" + (vectors ? ", c.embedding::text" : "")
                + " FROM knowledge_chunk c JOIN knowledge_document d ON d.id = c.document_id "
                + "WHERE NOT c.disabled ORDER BY d.external_id, c.ordinal",
            rs -> {
                out.add(new StoredChunk(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                    instant(rs.getTimestamp(5)), instant(rs.getTimestamp(6)), instant(rs.getTimestamp(7)),
                    rs.getInt(8), rs.getString(9), rs.getString(10), vectors ? parseVector(rs.getString(11)) : null));
            });
        return out;
    }

    /**
     * Re-embedded vectors in, atomically: they are first written aside to {@code knowledge_chunk_embedding_next}
     * (committed as they go, nothing a query reads), then one UPDATE in one transaction moves them into
     * {@code knowledge_chunk.embedding}. Queries see the old vectors until the commit and the new ones
     * after it, and never wait (no DDL, no table lock). A chunk replaced or deleted meanwhile (its content
     * changed, its document re-ingested) is left as ingestion wrote it. The side rows are removed whether
     * or not the swap succeeds; a failure leaves every old vector in place.
     *
     * @return how many chunk rows took a new vector (0 where there is no pgvector column)
     */
    public int swapEmbeddings(List<StoredChunk> chunks) {
        if (!hasVectorColumn() || chunks.isEmpty()) {
            return 0;
        }
        java.util.UUID run = java.util.UUID.randomUUID();
        try {
            jdbc.batchUpdate("""
                INSERT INTO knowledge_chunk_embedding_next (run_id, external_id, ordinal, content_md5, embedding)
                VALUES (?, ?, ?, ?, ?)""", chunks, 500, (PreparedStatement ps, StoredChunk c) -> {
                ps.setObject(1, run);
                ps.setString(2, c.documentId());
                ps.setInt(3, c.ordinal());
                ps.setString(4, md5(c.content()));
                ps.setObject(5, new PGvector(c.embedding()));
            });
            Integer swapped = tx.execute(status -> jdbc.update("""
                UPDATE knowledge_chunk c SET embedding = n.embedding
                FROM knowledge_chunk_embedding_next n JOIN knowledge_document d ON d.external_id = n.external_id
                WHERE n.run_id = ? AND c.document_id = d.id AND c.ordinal = n.ordinal
                  AND md5(c.content) = n.content_md5""", run));
            return swapped == null ? 0 : swapped;
        } finally {
            jdbc.update("DELETE FROM knowledge_chunk_embedding_next WHERE run_id = ?", run);
        }
    }

    private static String md5(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public int countChunks() {
        Integer n = jdbc.queryForObject("SELECT count(*) FROM knowledge_chunk", Integer.class);
        return n == null ? 0 : n;
    }

    static float[] parseVector(String text) {
        if (text == null) {
            return null;
        }
        String body = text.substring(1, text.length() - 1);
        if (body.isEmpty()) {
            return new float[0];
        }
        String[] parts = body.split(",");
        float[] v = new float[parts.length];
        for (int i = 0; i < parts.length; i++) {
            v[i] = Float.parseFloat(parts[i]);
        }
        return v;
    }

    private static Timestamp ts(Instant i) {
        return i == null ? null : Timestamp.from(i);
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }
}
