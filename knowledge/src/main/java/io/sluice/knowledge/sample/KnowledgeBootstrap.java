package io.sluice.knowledge.sample;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.sluice.knowledge.faq.FaqService;
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
 * {@link #status()}.
 */
public class KnowledgeBootstrap implements AutoCloseable {

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
    private volatile String status = "not started";

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

    public String status() {
        return status;
    }

    void run() {
        try {
            if (index.size() == 0 && documents.countChunks() > 0) {
                status = "rebuilding the local index from the database";
                int n = ingestion.rebuildIndexFromDatabase((job, stage, done, total) ->
                    status = "rebuilding the local index: " + done + "/" + total);
                log.info("local knowledge index rebuilt from the database: {} chunks", n);
            }
            if (loadSample) {
                loadSample();
            }
            status = "ready";
        } catch (RuntimeException e) {
            status = "failed: " + e.getMessage();
            log.warn("knowledge bootstrap stopped: {}", e.toString());
        }
    }

    /** Loads what is missing of the sample; a first start loads all of it. */
    void loadSample() {
        List<DocumentRequest> docs = SampleKnowledgeBase.documents();
        Set<String> present = Set.copyOf(documents.list(SampleKnowledgeBase.DOCUMENT_PREFIX, 10_000).stream()
            .map(KnowledgeRepository.DocumentRow::externalId).toList());
        if (present.size() >= docs.size()) {
            return;
        }
        if (present.isEmpty()) {
            status = "loading sample FAQ";
            faq.saveAll(SampleKnowledgeBase.faq(), true, (job, stage, done, total) ->
                status = "loading sample FAQ: " + stage + " " + done + "/" + total);
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
            status = "loading sample documents: " + (++done) + "/" + docs.size();
        }
        log.info("sample knowledge base loaded: {} documents", docs.size());
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
