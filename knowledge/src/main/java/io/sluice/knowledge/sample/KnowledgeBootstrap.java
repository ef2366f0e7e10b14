package io.sluice.knowledge.sample;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.KnowledgeRepository;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Start-up work that must not delay the application: bring the local index in line with the
 * database when it is empty, and load the sample knowledge base on first start (FAQ first, so the
 * FAQ tier answers early, then the policy documents). Progress is logged and readable through
 * {@link #progress()} (the health endpoint shows it).
 */
public class KnowledgeBootstrap implements AutoCloseable {

    /**
     * Where the start-up work is.
     *
     * @param state {@code waiting} (not started), {@code running}, {@code ready} or {@code failed}
     * @param stage what it is doing, in words
     * @param done  items of the stage done so far
     * @param total items of the stage (0 when unknown)
     */
    public record Progress(String state, String stage, int done, int total) {

        static Progress running(String stage, int done, int total) {
            return new Progress("running", stage, done, total);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(KnowledgeBootstrap.class);

    private final KnowledgeRepository documents;
    private final LuceneIndex index;
    private final IngestionService ingestion;
    private final FaqService faq;
    private final FaqSnapshotService snapshots;
    private final boolean loadSample;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "knowledge-bootstrap");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        return t;
    });
    private volatile Progress progress = new Progress("waiting", "not started", 0, 0);

    public KnowledgeBootstrap(KnowledgeRepository documents, LuceneIndex index, IngestionService ingestion,
            FaqService faq, FaqSnapshotService snapshots, boolean loadSample) {
        this.documents = documents;
        this.index = index;
        this.ingestion = ingestion;
        this.faq = faq;
        this.snapshots = snapshots;
        this.loadSample = loadSample;
    }

    public void start() {
        worker.submit(this::run);
    }

    public Progress progress() {
        return progress;
    }

    /** The progress in words (for logs and the console). */
    public String status() {
        Progress p = progress;
        return switch (p.state()) {
            case "running" -> p.stage() + (p.total() > 0 ? ": " + p.done() + "/" + p.total() : "");
            case "failed" -> "failed: " + p.stage();
            default -> p.state();
        };
    }

    void run() {
        long started = System.nanoTime();
        try {
            // empty, written with an earlier text analysis (BM25 before the one normaliser) or holding English vectors
            // of another English model: rebuild from the database (until then the main model answers English queries)
            if ((index.size() == 0 || !index.analysisCurrent() || !index.englishModelCurrent())
                    && documents.countChunks() > 0) {
                progress = Progress.running("rebuilding the local index from the database", 0, 0);
                int n = ingestion.rebuildIndexFromDatabase((job, stage, done, total) ->
                    progress = Progress.running("rebuilding the local index from the database", done, total));
                log.info("local knowledge index rebuilt from the database: {} chunks", n);
            }
            // a snapshot built with another model answers meanwhile (its English route falls back to the main model)
            if (snapshots.hasSnapshot() && !snapshots.modelsCurrent()) {
                progress = Progress.running("rebuilding the FAQ snapshot with the configured models", 0, 0);
                try {
                    FaqSnapshot s = snapshots.rebuildFromDatabase();
                    log.info("FAQ snapshot rebuilt with the configured embedding models: v{} ({} entries)",
                        s.version(), s.size());
                } catch (RuntimeException e) {
                    log.warn("FAQ snapshot built with other embedding models could not be rebuilt ({}); it keeps"
                        + " answering, Latin-script questions with the main model", e.toString());
                }
            }
            if (loadSample) {
                loadSampleAlongsideOthers(started);
            }
            progress = new Progress("ready", "ready", 0, 0);
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted() || worker.isShutdown()) {
                progress = new Progress("failed", "stopped by shutdown", 0, 0);
                log.debug("knowledge bootstrap stopped by shutdown: {}", e.toString());
                return;
            }
            progress = new Progress("failed", e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), 0, 0);
            log.warn("knowledge bootstrap stopped: {}", e.toString());
        }
    }

    /** Tries of {@link #loadSampleAlongsideOthers} and the pause before the next one (times the try's number). */
    static final int SAMPLE_TRIES = 4;
    static final long SAMPLE_RETRY_PAUSE_MILLIS = 3_000;

    /**
     * Loads the sample; when another instance (or another application context on the same database) loads it at the
     * same moment, both may insert the same key and the later one fails on the unique index. That is not a failed
     * start: once the other load has committed, what is still missing is loaded (existing keys are then updated).
     */
    private void loadSampleAlongsideOthers(long started) {
        for (int attempt = 1; ; attempt++) {
            try {
                loadSample(started);
                return;
            } catch (RuntimeException e) {
                if (attempt >= SAMPLE_TRIES || !concurrentLoad(e)) {
                    throw e;
                }
                log.info("sample knowledge base: another instance is loading it at the same time ({}); trying again",
                    e.getClass().getSimpleName());
                progress = Progress.running("loading the sample: another instance is loading it too", 0, 0);
                try {
                    Thread.sleep(SAMPLE_RETRY_PAUSE_MILLIS * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** A unique-key clash anywhere in the cause chain. */
    static boolean concurrentLoad(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof org.springframework.dao.DataIntegrityViolationException
                    || (t instanceof java.sql.SQLException sql && "23505".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    /** Loads what is missing of the sample; a first start loads all of it. */
    void loadSample() {
        loadSample(System.nanoTime());
    }

    private void loadSample(long started) {
        List<DocumentRequest> docs = SampleKnowledgeBase.documents();
        Set<String> present = Set.copyOf(documents.list(SampleKnowledgeBase.DOCUMENT_PREFIX, 10_000).stream()
            .map(KnowledgeRepository.DocumentRow::externalId).toList());
        if (present.size() >= docs.size()) {
            return;
        }
        log.info("loading the sample knowledge base in the background (FAQ first, then {} documents); "
            + "progress: GET /actuator/health, component knowledge", docs.size() - present.size());
        if (present.isEmpty()) {
            progress = Progress.running("loading sample FAQ", 0, 0);
            faq.saveAll(SampleKnowledgeBase.faq(), true, (job, stage, done, total) ->
                progress = Progress.running("loading sample FAQ: " + stage, done, total));
            log.info("sample FAQ loaded; snapshot v{} has {} entries", snapshots.current().version(),
                snapshots.current().size());
        }
        int done = 0;
        for (DocumentRequest doc : docs) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            if (!present.contains(doc.externalId())) {
                ingestion.ingest(doc);
            }
            progress = Progress.running("loading sample documents", ++done, docs.size());
            if (done % Math.max(1, docs.size() / 4) == 0 && done < docs.size()) {
                log.info("sample knowledge base: {} of {} documents loaded", done, docs.size());
            }
        }
        log.info("sample knowledge base loaded: {} FAQ entries, {} documents, in {} s", snapshots.current().size(),
            docs.size(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    }

    /** Stops the start-up work and waits briefly for it, so it never outlives the database it writes to. */
    @Override
    public void close() {
        worker.shutdownNow();
        try {
            if (!worker.awaitTermination(10, TimeUnit.SECONDS)) {
                log.debug("knowledge bootstrap still busy at shutdown");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
