package io.sluice.knowledge.ingest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.ingest.IngestException.Problem;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.store.KnowledgeRepository.DocumentMeta;
import io.sluice.knowledge.store.KnowledgeRepository.DocumentRow;
import io.sluice.knowledge.store.StoredChunk;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ingests documents into every tier: PostgreSQL (+ pgvector) and the local Lucene index (BM25 +
 * KNN). Validation, parsing, chunking and embedding all happen before anything is written, so a
 * refused or failed document leaves the previous state untouched. Re-ingesting unchanged content
 * (same hash of content and metadata) is a no-op; an update replaces the chunks atomically in each
 * store (readers see the old chunks until the new ones are committed).
 */
public class IngestionService {

    private static final Logger log = LoggerFactory.getLogger(IngestionService.class);
    private static final int EMBED_BATCH = 16;

    /** A running or recently finished ingest, for progress display. */
    public record Job(String externalId, String stage, int done, int total, Instant startedAt, Instant updatedAt,
            String error) {
    }

    private final KnowledgeRepository repository;
    private final LuceneIndex index;
    private final Embedder embedder;
    private final DocumentParser parser;
    private final Chunker chunker;
    private final long maxBytes;
    private final Map<String, Job> jobs = new ConcurrentHashMap<>();

    public IngestionService(KnowledgeRepository repository, LuceneIndex index, Embedder embedder, Chunker chunker,
            long maxBytes) {
        this(repository, index, embedder, chunker, maxBytes, ParseLimits.DEFAULT);
    }

    public IngestionService(KnowledgeRepository repository, LuceneIndex index, Embedder embedder, Chunker chunker,
            long maxBytes, ParseLimits limits) {
        this.parser = new DocumentParser(limits);
        this.repository = repository;
        this.index = index;
        this.embedder = embedder;
        this.chunker = chunker;
        this.maxBytes = maxBytes;
    }

    public IngestResult ingest(DocumentRequest request) {
        return ingest(request, IngestProgress.NONE);
    }

    public IngestResult ingest(DocumentRequest request, IngestProgress progress) {
        return ingest(request, null, progress);
    }

    /**
     * Ingests chunks the caller prepared (FAQ mirrors: one chunk per question/phrasing, each embedded
     * on its own); {@code request.content()} only feeds the content hash.
     */
    public IngestResult ingestPrepared(DocumentRequest request, List<Chunker.Chunk> chunks) {
        return ingestPrepared(request, chunks, java.util.Map.of());
    }

    /**
     * Same, with vectors already computed for some chunk texts ({@code textToEmbed} → vector of this
     * service's embedder): a bulk import embeds all its texts in large batches once, for this and for the
     * FAQ snapshot, instead of a few texts per entry twice.
     */
    public IngestResult ingestPrepared(DocumentRequest request, List<Chunker.Chunk> chunks,
            java.util.Map<String, float[]> known) {
        return ingest(request, List.copyOf(chunks), IngestProgress.NONE, known);
    }

    /** The local index this service writes (a bulk import commits it once: {@link LuceneIndex#inOneCommit}). */
    public LuceneIndex index() {
        return index;
    }

    /** The embedder chunks are embedded with (so a caller can embed in bulk for {@link #ingestPrepared}). */
    public io.sluice.knowledge.embedding.Embedder embedder() {
        return embedder;
    }

    private IngestResult ingest(DocumentRequest request, List<Chunker.Chunk> prepared, IngestProgress progress) {
        return ingest(request, prepared, progress, java.util.Map.of());
    }

    private IngestResult ingest(DocumentRequest request, List<Chunker.Chunk> prepared, IngestProgress progress,
            java.util.Map<String, float[]> known) {
        String id = request.externalId();
        if (id == null || id.isBlank() || id.length() > 200 || id.chars().anyMatch(Character::isISOControl)) {
            throw new IngestException(Problem.INVALID, "externalId is required (1-200 characters, no control characters)");
        }
        Instant started = Instant.now();
        IngestProgress tracked = (job, stage, done, total) -> {
            jobs.put(job, new Job(job, stage, done, total, started, Instant.now(), null));
            progress.update(job, stage, done, total);
        };
        try {
            IngestResult result = doIngest(request, prepared, tracked, known);
            tracked.update(id, "done", 1, 1);
            return result;
        } catch (RuntimeException e) {
            jobs.put(id, new Job(id, "failed", 0, 0, started, Instant.now(), e.getMessage()));
            throw e;
        } finally {
            pruneJobs();
        }
    }

    private IngestResult doIngest(DocumentRequest request, List<Chunker.Chunk> prepared, IngestProgress progress,
            java.util.Map<String, float[]> known) {
        String id = request.externalId();
        byte[] content = request.content();
        if (content == null || content.length == 0) {
            throw new IngestException(Problem.EMPTY, IngestException.named("document", id) + " is empty");
        }
        if (content.length > maxBytes) {
            throw new IngestException(Problem.TOO_LARGE, IngestException.named("document", id) + " is " + content.length
                + " bytes; the limit is " + maxBytes);
        }
        DocumentFormat format = DocumentFormat.detect(request.contentType(), request.fileName())
            .orElseThrow(() -> new IngestException(Problem.UNSUPPORTED_TYPE,
                "unsupported document type; supported: " + DocumentFormat.SUPPORTED));
        if (request.validFrom() != null && request.validUntil() != null
                && !request.validUntil().isAfter(request.validFrom())) {
            throw new IngestException(Problem.INVALID, "validUntil must be after validFrom");
        }
        progress.update(id, "parse", 0, 1);
        ParsedDocument parsed = prepared != null ? new ParsedDocument(request.title(), prepared.stream()
            .map(c -> new ParsedDocument.Section(c.heading(), c.content())).toList()) : parser.parse(content, format);
        if (parsed.isBlank()) {
            throw new IngestException(Problem.EMPTY, IngestException.named("document", id) + " has no text");
        }
        String title = firstNonBlank(request.title(), parsed.title(), request.fileName(), id);
        DocumentMeta meta = new DocumentMeta(id, title, request.sourceUrl(), format.mediaType(), request.category(),
            request.tags() == null ? List.of() : request.tags(), request.validFrom(), request.validUntil());
        String hash = hash(content, meta);
        Optional<DocumentRow> existing = repository.find(id);
        if (existing.isPresent() && existing.get().contentHash().equals(hash) && index.count(id) > 0) {
            return new IngestResult(id, IngestResult.Outcome.UNCHANGED, existing.get().chunkCount(),
                existing.get().version(), existing.get().ingestedAt().truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                hash);
        }
        List<Chunker.Chunk> chunks = prepared != null ? prepared : chunker.chunk(parsed);
        if (chunks.isEmpty()) {
            throw new IngestException(Problem.EMPTY, IngestException.named("document", id) + " has no text");
        }
        List<float[]> vectors = new ArrayList<>(chunks.size());
        if (!known.isEmpty() && chunks.stream().allMatch(c -> known.containsKey(c.textToEmbed()))) {
            chunks.forEach(c -> vectors.add(known.get(c.textToEmbed())));
        }
        for (int from = vectors.isEmpty() ? 0 : chunks.size(); from < chunks.size(); from += EMBED_BATCH) {
            progress.update(id, "embed", from, chunks.size());
            List<String> batch = chunks.subList(from, Math.min(chunks.size(), from + EMBED_BATCH)).stream()
                .map(Chunker.Chunk::textToEmbed).toList();
            vectors.addAll(embedder.embedAll(batch));
        }
        progress.update(id, "store", chunks.size(), chunks.size());
        List<StoredChunk> stored = new ArrayList<>(chunks.size());
        Instant now = Instant.now();
        for (int i = 0; i < chunks.size(); i++) {
            Chunker.Chunk c = chunks.get(i);
            stored.add(new StoredChunk(id, title, request.sourceUrl(), request.category(), now, request.validFrom(),
                request.validUntil(), c.ordinal(), c.heading(), c.content(), vectors.get(i)));
        }
        // the database rows and the local index change together: the index write is the last step inside the
        // transaction, so when it fails (even after the writer's recovery) the rows roll back and a 5xx stores nothing
        DocumentRow row = repository.inTransaction(() -> {
            DocumentRow replaced = repository.replace(meta, hash, stored);
            // every tier reports freshness in milliseconds (Lucene stores epoch millis)
            Instant at = replaced.ingestedAt().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
            // chunks an operator disabled (same text as before) stay out of the local index too
            java.util.Set<Integer> disabled = repository.disabledOrdinals(id);
            List<StoredChunk> indexed = stored.stream().filter(c -> !disabled.contains(c.ordinal()))
                .map(c -> new StoredChunk(c.documentId(), c.title(), c.url(),
                c.category(), at, c.validFrom(), c.validUntil(), c.ordinal(), c.heading(), c.content(),
                c.embedding())).toList();
            progress.update(id, "index", chunks.size(), chunks.size());
            index.upsertDocument(id, indexed);
            return replaced;
        });
        Instant ingestedAt = row.ingestedAt().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        log.debug("ingested {} v{}: {} chunks", id, row.version(), chunks.size());
        return new IngestResult(id, existing.isPresent() ? IngestResult.Outcome.UPDATED : IngestResult.Outcome.CREATED,
            chunks.size(), row.version(), ingestedAt, hash);
    }

    /** Removes the document from the database (chunks and pgvector rows) and the Lucene index. */
    public boolean delete(String externalId) {
        boolean existed = repository.delete(externalId);
        boolean indexed = index.count(externalId) > 0;
        index.deleteDocument(externalId);
        return existed || indexed;
    }

    /** Rebuilds the local index from the database (re-embedding when vectors are not stored there). */
    public int rebuildIndexFromDatabase(IngestProgress progress) {
        return reindex(false, progress);
    }

    /**
     * Rebuilds the local index aside, then swaps: every chunk is read from the database and embedded
     * again from its text ({@code reembed}, e.g. after a model change; otherwise stored vectors are
     * reused), all before the index is touched; {@link LuceneIndex#replaceAll} then replaces the content
     * in one commit, so searchers see the old index until the new one is complete, never a partial one.
     * A failure before the swap leaves the old index answering. With {@code reembed} and pgvector, the
     * new vectors also replace the {@code knowledge_chunk} embeddings, written aside and swapped in one
     * transaction ({@link KnowledgeRepository#swapEmbeddings}) before the Lucene swap.
     */
    public int reindex(boolean reembed, IngestProgress progress) {
        List<StoredChunk> chunks = repository.allChunks();
        if (reembed) {
            chunks = chunks.stream().map(c -> new StoredChunk(c.documentId(), c.title(), c.url(), c.category(),
                c.ingestedAt(), c.validFrom(), c.validUntil(), c.ordinal(), c.heading(), c.content(), null)).toList();
        }
        List<StoredChunk> ready = new ArrayList<>(chunks.size());
        for (int from = 0; from < chunks.size(); from += EMBED_BATCH) {
            List<StoredChunk> batch = chunks.subList(from, Math.min(chunks.size(), from + EMBED_BATCH));
            List<String> toEmbed = batch.stream().filter(c -> c.embedding() == null).map(StoredChunk::indexText).toList();
            List<float[]> vectors = toEmbed.isEmpty() ? List.of() : embedder.embedAll(toEmbed);
            int v = 0;
            for (StoredChunk c : batch) {
                float[] e = c.embedding() != null ? c.embedding() : vectors.get(v++);
                ready.add(new StoredChunk(c.documentId(), c.title(), c.url(), c.category(), c.ingestedAt(),
                    c.validFrom(), c.validUntil(), c.ordinal(), c.heading(), c.content(), e));
            }
            progress.update("index-rebuild", "embed", Math.min(chunks.size(), from + EMBED_BATCH), chunks.size());
        }
        if (reembed) {
            progress.update("index-rebuild", "swap-vectors", chunks.size(), chunks.size());
            int swapped = repository.swapEmbeddings(ready);
            log.info("reindex: {} pgvector rows re-embedded", swapped);
        }
        index.replaceAll(ready);
        return ready.size();
    }

    /** Running and recent ingests (kept for 10 minutes). */
    public Collection<Job> jobs() {
        return List.copyOf(jobs.values());
    }

    private void pruneJobs() {
        Instant cutoff = Instant.now().minusSeconds(600);
        jobs.values().removeIf(j -> j.updatedAt().isBefore(cutoff));
    }

    static String hash(byte[] content, DocumentMeta meta) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(content);
            String metaText = String.join("\u0000", String.valueOf(meta.title()), String.valueOf(meta.sourceUrl()),
                String.valueOf(meta.category()), String.valueOf(meta.tags()), String.valueOf(meta.validFrom()),
                String.valueOf(meta.validUntil()), meta.contentType());
            sha.update(metaText.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v.strip();
            }
        }
        return "untitled";
    }
}
