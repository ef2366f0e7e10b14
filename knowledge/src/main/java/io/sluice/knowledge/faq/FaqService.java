package io.sluice.knowledge.faq;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sluice.knowledge.chain.Source;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.ingest.IngestException;
import io.sluice.knowledge.ingest.IngestException.Problem;
import io.sluice.knowledge.ingest.IngestProgress;
import io.sluice.knowledge.ingest.IngestionService;

/**
 * FAQ entries: validated, stored in {@code faq_entry}, mirrored as a one-chunk document
 * ({@code faq:<key>}) into the vector and BM25 tiers, and (optionally) republished into the FAQ
 * snapshot right away. An entry without a question or answer is refused before anything is written.
 */
public class FaqService {

    private final FaqRepository repository;
    private final IngestionService ingestion;
    private final FaqSnapshotService snapshots;
    private final boolean publishOnChange;

    public FaqService(FaqRepository repository, IngestionService ingestion, FaqSnapshotService snapshots,
            boolean publishOnChange) {
        this.repository = repository;
        this.ingestion = ingestion;
        this.snapshots = snapshots;
        this.publishOnChange = publishOnChange;
    }

    public FaqEntry save(FaqEntry entry) {
        FaqEntry saved = store(entry);
        if (publishOnChange) {
            publish();
        }
        return saved;
    }

    /**
     * Republishes the snapshot after a stored change. The change is committed by then; a snapshot that
     * cannot be rebuilt now keeps the previous one answering (logged), it does not turn the change into a 500.
     */
    private void publish() {
        try {
            snapshots.rebuildFromDatabase();
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(FaqService.class)
                .warn("FAQ snapshot not republished after a change (the previous one still answers): {}", e.toString());
        }
    }

    /** Saves many (e.g. a file), then publishes one snapshot. All are validated before any is written. */
    public List<FaqEntry> saveAll(List<FaqEntry> entries, boolean publish, IngestProgress progress) {
        entries.forEach(FaqService::validate);
        List<FaqEntry> saved = new ArrayList<>(entries.size());
        for (FaqEntry e : entries) {
            saved.add(store(e));
            progress.update("faq", "store", saved.size(), entries.size());
        }
        if (publish) {
            progress.update("faq", "snapshot", 0, 1);
            snapshots.rebuildFromDatabase();
        }
        return saved;
    }

    /** Texts per model call in a bulk import (the model's own batch size still applies inside). */
    static final int BULK_EMBED_BATCH = 256;

    /** What a bulk import did. */
    public record ImportResult(int created, int updated, long snapshotVersion, int snapshotEntries) {
    }

    /**
     * A bulk import: every entry is validated first (a key each, no key twice), then all are stored in one
     * transaction — any failure stores none of them and the index is put back as it was — and one snapshot
     * is published at the end. A snapshot that fails validation rolls nothing back (the entries are
     * stored); the previous snapshot keeps answering and the error says so.
     */
    public ImportResult importAll(List<FaqEntry> entries) {
        if (entries.isEmpty()) {
            throw new IngestException(Problem.INVALID, "the import holds no FAQ entries");
        }
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            FaqEntry e = entries.get(i);
            if (e.key() == null || e.key().startsWith("#")) {
                throw new IngestException(Problem.INVALID, "entry " + (i + 1) + " has no key");
            }
            if (!keys.add(e.key())) {
                throw new IngestException(Problem.INVALID, "entry " + (i + 1) + " repeats a key of an earlier entry");
            }
            try {
                validate(e);
            } catch (IngestException ex) {
                throw new IngestException(Problem.INVALID, "entry " + (i + 1) + ": " + ex.getMessage());
            }
        }
        long t0 = System.nanoTime();
        // every text embedded once, in large batches, for the document tiers and the snapshot alike
        java.util.Map<String, float[]> vectors = new java.util.HashMap<>();
        List<String> texts = entries.stream().flatMap(e -> mirrorChunks(e).stream())
            .map(io.sluice.knowledge.ingest.Chunker.Chunk::textToEmbed).distinct().toList();
        for (int from = 0; from < texts.size(); from += BULK_EMBED_BATCH) {
            List<String> batch = texts.subList(from, Math.min(texts.size(), from + BULK_EMBED_BATCH));
            List<float[]> embedded = ingestion.embedder().embedAll(batch);
            for (int i = 0; i < batch.size(); i++) {
                vectors.put(batch.get(i), embedded.get(i));
            }
        }
        long t1 = System.nanoTime();
        java.util.Map<String, Optional<FaqEntry>> before = new java.util.LinkedHashMap<>();
        int[] created = {0};
        try {
            ingestion.index().inOneCommit(() -> repository.inTransaction(() -> {
                for (FaqEntry e : entries) {
                    Optional<FaqEntry> old = repository.findByKey(e.key());
                    before.put(e.key(), old);
                    if (old.isEmpty()) {
                        created[0]++;
                    }
                    FaqEntry saved = repository.upsert(e);
                    ingestion.ingestPrepared(mirror(saved), mirrorChunks(saved), vectors);
                }
                return null;
            }));
        } catch (RuntimeException failure) {
            restoreIndex(before);
            throw failure;
        }
        long t2 = System.nanoTime();
        FaqSnapshot published = snapshots.rebuildFromDatabase(
            snapshots.modelId().equals(ingestion.embedder().modelId()) ? vectors : java.util.Map.of());
        org.slf4j.LoggerFactory.getLogger(FaqService.class).info(
            "FAQ import of {} entries: embedding {} texts {} ms, store + index {} ms, snapshot {} ms", entries.size(),
            texts.size(), (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (System.nanoTime() - t2) / 1_000_000);
        return new ImportResult(created[0], entries.size() - created[0], published.version(), published.size());
    }

    /** After a rolled-back import: the document tiers get back what the database holds again. */
    private void restoreIndex(java.util.Map<String, Optional<FaqEntry>> touched) {
        touched.forEach((key, old) -> {
            try {
                if (old.isPresent()) {
                    ingestion.ingestPrepared(mirror(old.get()), mirrorChunks(old.get()));
                } else {
                    ingestion.delete(Source.FAQ_DOCUMENT_PREFIX + key);
                }
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(FaqService.class)
                    .warn("index not restored for a FAQ entry after a failed import: {}", e.toString());
            }
        });
    }

    /** Rebuilds the snapshot from the stored entries and publishes it (validated first). */
    public FaqSnapshot publishSnapshot() {
        return snapshots.rebuildFromDatabase();
    }

    /**
     * The entry row, its mirror document and the local index in one transaction: if the index write fails
     * (after the writer's own recovery), nothing of the entry is stored and the previous one stays.
     */
    private FaqEntry store(FaqEntry entry) {
        validate(entry);
        return repository.inTransaction(() -> {
            FaqEntry saved = repository.upsert(entry);
            ingestion.ingestPrepared(mirror(saved), mirrorChunks(saved));
            return saved;
        });
    }

    public Optional<FaqEntry> find(String key) {
        return repository.findByKey(key);
    }

    /** Removes the entry from the database, the document tiers and (when publishing on change) the snapshot. */
    public boolean delete(String key) {
        boolean existed = repository.deleteByKey(key);
        boolean mirrored = ingestion.delete(Source.FAQ_DOCUMENT_PREFIX + key);
        if ((existed || mirrored) && publishOnChange) {
            publish();
        }
        return existed || mirrored;
    }

    static void validate(FaqEntry e) {
        String name = e.key() == null || e.key().startsWith("#") ? "FAQ entry" : IngestException.named("FAQ entry", e.key());
        if (e.question() == null || e.question().isBlank()) {
            throw new IngestException(Problem.INVALID, name + " has no question");
        }
        if (e.question().length() > 1000) {
            throw new IngestException(Problem.INVALID, name + ": question longer than 1000 characters");
        }
        if (e.answer() == null || e.answer().isBlank()) {
            throw new IngestException(Problem.INVALID, name + " has no answer");
        }
        if (e.key() != null && e.key().length() > 190) {
            throw new IngestException(Problem.INVALID, name + ": key longer than 190 characters");
        }
        if (e.phrasings().stream().anyMatch(p -> p == null || p.isBlank())) {
            throw new IngestException(Problem.INVALID, name + " has a blank phrasing");
        }
        if (e.validFrom() != null && e.validUntil() != null && !e.validUntil().isAfter(e.validFrom())) {
            throw new IngestException(Problem.INVALID, name + ": validUntil must be after validFrom");
        }
    }

    /**
     * The entry's chunks for the vector and BM25 tiers: one per question/phrasing, embedded on that
     * text alone (like the snapshot) and holding the answer for BM25 and for display.
     */
    public static List<io.sluice.knowledge.ingest.Chunker.Chunk> mirrorChunks(FaqEntry e) {
        List<io.sluice.knowledge.ingest.Chunker.Chunk> chunks = new ArrayList<>();
        List<String> texts = e.texts();
        for (int i = 0; i < texts.size(); i++) {
            chunks.add(new io.sluice.knowledge.ingest.Chunker.Chunk(i, texts.get(i),
                FaqAnswerMarker.MARKER + e.answer(), texts.get(i)));
        }
        return chunks;
    }

    /** The entry as a Markdown document (its content feeds the hash; see {@link #mirrorChunks}). */
    public static DocumentRequest mirror(FaqEntry e) {
        StringBuilder md = new StringBuilder("# ").append(e.question()).append("\n\n");
        if (!e.phrasings().isEmpty()) {
            md.append("问：").append(String.join("；", e.phrasings())).append("\n");
        }
        md.append(FaqAnswerMarker.MARKER).append(e.answer()).append("\n");
        return new DocumentRequest(Source.FAQ_DOCUMENT_PREFIX + e.key(), e.question(), null, "text/markdown",
            md.toString().getBytes(StandardCharsets.UTF_8), null, e.category(), e.tags(), e.validFrom(), e.validUntil());
    }
}
