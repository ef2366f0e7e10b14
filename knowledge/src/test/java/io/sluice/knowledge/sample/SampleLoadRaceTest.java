package io.sluice.knowledge.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.ingest.Chunker;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.ingest.IngestProgress;
import io.sluice.knowledge.ingest.IngestResult;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.store.StoredChunk;
import io.sluice.knowledge.support.SharedEmbedder;
import io.sluice.knowledge.support.TestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.dao.DuplicateKeyException;

/**
 * Two instances (or two application contexts on one database) loading the sample at the same moment: the one whose
 * insert clashes on a unique key tries again once the other has committed, and reaches "ready" instead of "failed".
 */
class SampleLoadRaceTest {

    @TempDir
    Path dir;

    @Test
    void aUniqueKeyClashWithAnotherLoaderIsRetriedAndTheBootstrapGetsReady() throws Exception {
        KnowledgeRepository documents = new KnowledgeRepository(TestDatabase.down()) {
            @Override
            public int countChunks() {
                return 0;
            }

            @Override
            public List<DocumentRow> list(String externalIdPrefix, int limit) {
                return List.of();
            }

            @Override
            public List<StoredChunk> allChunks() {
                return List.of();
            }
        };
        AtomicInteger faqLoads = new AtomicInteger();
        AtomicInteger ingested = new AtomicInteger();
        try (LuceneIndex index = new LuceneIndex(dir.resolve("idx"), LexicalAnalyzers.create("smartcn"),
                SharedEmbedder.get().dimension())) {
            FaqSnapshotService snapshots = new FaqSnapshotService(dir.resolve("snap"), SharedEmbedder.get(), () -> null,
                0.9);
            IngestionService ingestion = new IngestionService(documents, index, SharedEmbedder.get(),
                new Chunker(200, 40), 64 * 1024) {
                @Override
                public IngestResult ingest(DocumentRequest request) {
                    ingested.incrementAndGet();
                    return null;
                }
            };
            FaqService faq = new FaqService(new FaqRepository(TestDatabase.down()), ingestion, snapshots, false) {
                @Override
                public List<FaqEntry> saveAll(List<FaqEntry> entries, boolean publish, IngestProgress progress) {
                    if (faqLoads.incrementAndGet() == 1) {
                        throw new DuplicateKeyException("duplicate key value violates unique constraint"
                            + " \"faq_entry_external_id_idx\"");
                    }
                    return entries;
                }
            };
            try (KnowledgeBootstrap bootstrap = new KnowledgeBootstrap(documents, index, ingestion, faq, snapshots,
                    true)) {
                bootstrap.run();
                assertThat(bootstrap.status()).isEqualTo("ready");
            }
            assertThat(faqLoads).hasValue(2);
            assertThat(ingested.get()).isEqualTo(SampleKnowledgeBase.documents().size());
        }
        assertThat(KnowledgeBootstrap.concurrentLoad(new IllegalStateException("x",
            new java.sql.SQLException("dup", "23505")))).isTrue();
        assertThat(KnowledgeBootstrap.concurrentLoad(new IllegalStateException("disk full"))).isFalse();
    }
}
