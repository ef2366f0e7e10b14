package io.sluice.knowledge.ingest;

import java.time.temporal.ChronoUnit;
import java.util.List;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.ingest.IngestException.Problem;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.store.KnowledgeRepository.ChunkRow;
import io.sluice.knowledge.store.StoredChunk;

/**
 * What an operator does to one indexed chunk of a document: correct its text (embedded again and written
 * to every tier at once) or disable it (out of pgvector, Lucene BM25/KNN and prompts) and enable it again.
 * As in ingestion, the embedding is made before anything is written, and the local index write is the
 * last step inside the database transaction, so a failure leaves both as they were. The document's
 * version and content hash stay: re-uploading the same file is still a no-op that keeps the correction;
 * a changed file replaces the chunks (a disabled chunk whose text comes back stays disabled).
 */
public class ChunkEditor {

    /** Longest corrected chunk text; chunks are cut far shorter (sluice.knowledge.ingestion.chunk-chars). */
    public static final int MAX_CHUNK_CHARS = 20_000;

    private final KnowledgeRepository repository;
    private final LuceneIndex index;
    private final Embedder embedder;

    public ChunkEditor(KnowledgeRepository repository, LuceneIndex index, Embedder embedder) {
        this.repository = repository;
        this.index = index;
        this.embedder = embedder;
    }

    public List<ChunkRow> chunks(String externalId) {
        return repository.chunks(externalId);
    }

    /** Replaces the chunk's text, re-embeds and re-indexes it (a disabled chunk stays disabled). */
    public void edit(String externalId, int ordinal, String text) {
        String content = text == null ? "" : text.replace("\r\n", "\n").strip();
        if (content.isEmpty()) {
            throw new IngestException(Problem.EMPTY, "the chunk text must not be empty (disable the chunk instead)");
        }
        if (content.length() > MAX_CHUNK_CHARS) {
            throw new IngestException(Problem.TOO_LARGE, "the chunk text is longer than " + MAX_CHUNK_CHARS + " characters");
        }
        if (content.chars().anyMatch(c -> Character.isISOControl(c) && c != '\n' && c != '\t')) {
            throw new IngestException(Problem.INVALID, "the chunk text holds control characters");
        }
        StoredChunk current = existing(externalId, ordinal);
        boolean disabled = repository.disabledOrdinals(externalId).contains(ordinal);
        StoredChunk edited = with(current, content, null);
        float[] vector = embedder.embed(edited.indexText());
        repository.inTransaction(() -> {
            repository.editChunk(externalId, ordinal, content, vector);
            if (!disabled) {
                index.upsertChunk(with(current, content, vector));
            }
            return null;
        });
    }

    /** Takes the chunk out of retrieval in every tier (idempotent). */
    public void disable(String externalId, int ordinal) {
        existing(externalId, ordinal);
        repository.inTransaction(() -> {
            repository.setDisabled(externalId, ordinal, true, null);
            index.deleteChunk(externalId, ordinal);
            return null;
        });
    }

    /** Puts the chunk back: embedded afresh (a rebuild may have skipped it) and indexed again. */
    public void enable(String externalId, int ordinal) {
        StoredChunk current = existing(externalId, ordinal);
        float[] vector = embedder.embed(current.indexText());
        repository.inTransaction(() -> {
            repository.setDisabled(externalId, ordinal, false, vector);
            index.upsertChunk(with(current, current.content(), vector));
            return null;
        });
    }

    private StoredChunk existing(String externalId, int ordinal) {
        if (io.sluice.knowledge.chain.Source.faqKeyOf(externalId) != null) {
            // a FAQ entry's mirror follows the entry: it is changed on the FAQ page, never chunk by chunk
            throw new IngestException(Problem.INVALID, "FAQ entries are edited as FAQ entries, not as chunks");
        }
        return repository.chunk(externalId, ordinal).orElseThrow(() -> new IngestException(Problem.NOT_FOUND,
            "there is no chunk " + ordinal + " in " + IngestException.named("document", externalId)));
    }

    /** The chunk with new text and vector; freshness in milliseconds, as every tier reports it. */
    private static StoredChunk with(StoredChunk c, String content, float[] vector) {
        return new StoredChunk(c.documentId(), c.title(), c.url(), c.category(),
            c.ingestedAt() == null ? null : c.ingestedAt().truncatedTo(ChronoUnit.MILLIS), c.validFrom(), c.validUntil(),
            c.ordinal(), c.heading(), content, vector);
    }
}
