package io.sluice.batch.reindex;

import io.sluice.batch.jobs.maintenance.MaintenanceProgress;
import io.sluice.batch.jobs.maintenance.MaintenanceWork;
import io.sluice.knowledge.ingest.IngestionService;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The {@code knowledge-reindex} job's work: {@link IngestionService#reindex} reads every chunk from the
 * database, re-embeds it (parameter {@code reembed}, default true; false reuses stored vectors), builds
 * the new Lucene content aside and swaps it in with one commit. Queries keep being answered by the old
 * index until the swap, then by the new one; a failure before the swap leaves the old index in place.
 */
public class KnowledgeReindex implements MaintenanceWork {

    public static final String JOB_NAME = "knowledge-reindex";

    private static final Logger log = LoggerFactory.getLogger(KnowledgeReindex.class);

    private final ObjectProvider<IngestionService> ingestion;

    public KnowledgeReindex(ObjectProvider<IngestionService> ingestion) {
        this.ingestion = ingestion;
    }

    @Override
    public String jobName() {
        return JOB_NAME;
    }

    @Override
    public void run(MaintenanceProgress progress) {
        IngestionService service = ingestion.getIfAvailable();
        if (service == null) {
            log.info("knowledge-reindex: no knowledge index in this application; nothing to do");
            progress.progress(0, 0);
            return;
        }
        boolean reembed = !"false".equalsIgnoreCase(progress.parameter("reembed"));
        int chunks = service.reindex(reembed, (job, stage, done, total) -> progress.progress(done, total + 1));
        progress.progress(chunks + 1, chunks + 1);
        log.info("knowledge-reindex: {} chunks indexed (re-embedded: {})", chunks, reembed);
    }
}
