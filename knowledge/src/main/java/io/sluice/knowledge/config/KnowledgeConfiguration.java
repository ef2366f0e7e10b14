package io.sluice.knowledge.config;

import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.sluice.knowledge.answer.ExtractiveAnswerComposer;
import io.sluice.knowledge.answer.KnowledgeAnswerService;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.chain.RetrievalTier;
import io.sluice.knowledge.chain.Tiers;
import io.sluice.knowledge.embedding.CachingEmbedder;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.NormalizingEmbedder;
import io.sluice.knowledge.embedding.OnnxBgeEmbedder;
import io.sluice.knowledge.embedding.EnglishModels;
import io.sluice.knowledge.embedding.GatewayEmbedder;
import io.sluice.knowledge.embedding.RemoteEmbeddings;
import io.sluice.knowledge.faq.FaqIndex;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.hittest.HitTestService;
import io.sluice.knowledge.ingest.Chunker;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.sample.KnowledgeBootstrap;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.vector.PgVectorSearcher;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/** Wires the knowledge module: embedder, stores, tiers, chain, ingestion, FAQ snapshots, bootstrap. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KnowledgeProperties.class)
public class KnowledgeConfiguration {

    private static final Logger log = LoggerFactory.getLogger(KnowledgeConfiguration.class);

    @Bean(destroyMethod = "close")
    KnowledgeExecutors knowledgeExecutors(KnowledgeProperties properties) {
        return new KnowledgeExecutors(properties.embedding().threads(), properties.chain().threads());
    }

    @Bean
    Embedder knowledgeEmbedder(KnowledgeProperties properties, KnowledgeExecutors executors,
            org.springframework.beans.factory.ObjectProvider<RemoteEmbeddings> remote) {
        KnowledgeProperties.Embedding e = properties.embedding();
        Embedder base;
        if ("openai".equalsIgnoreCase(e.provider())) {
            base = remoteEmbedder(e, remote.getIfAvailable());
            log.info("embeddings: remote model through the gateway's embedding lane, route {}",
                e.model() == null || e.model().isBlank() ? "(the lane's)" : e.model());
        } else {
            base = new OnnxBgeEmbedder(e.batchSize(), executors.embedding());
            log.info("embeddings: in-process {}", OnnxBgeEmbedder.MODEL_ID);
        }
        // the one embedding front: normalise, then the query LRU (keyed by normalised text), then the model
        return new NormalizingEmbedder(new CachingEmbedder(base, e.queryCacheSize()));
    }

    /**
     * The remote embedder: through the gateway's embedding lane, never a direct call. Its endpoint is a
     * gateway provider (sluice.llm.providers) serving the route {@code model} names (blank = the lane's route).
     */
    public static Embedder remoteEmbedder(KnowledgeProperties.Embedding e, RemoteEmbeddings remote) {
        if (e.baseUrl() != null && !e.baseUrl().isBlank()) {
            throw new IllegalStateException("sluice.knowledge.embedding.base-url is not used any more: the remote embedder"
                + " goes through the gateway; configure the endpoint as a provider (sluice.llm.providers) serving the route"
                + " sluice.gateway.embeddings.route, and leave SLUICE_EMBEDDING_BASE_URL blank");
        }
        if (remote == null) {
            throw new IllegalStateException("sluice.knowledge.embedding.provider=openai needs the gateway's embedding lane");
        }
        return new GatewayEmbedder(remote, e.model(), e.dimension(), e.batchSize());
    }

    /**
     * The English model for Latin-script texts and queries (Lucene KNN and the FAQ snapshot), held in a
     * wrapper: not an {@link Embedder} bean, other modules inject the one Embedder (the main model).
     */
    @Bean
    EnglishModel knowledgeEnglishModel(KnowledgeProperties properties, KnowledgeExecutors executors) {
        KnowledgeProperties.Embedding e = properties.embedding();
        if (!e.englishModelEnabled()) {
            return new EnglishModel(null);
        }
        String id = EnglishModels.canonical(e.englishModel());
        log.info("embeddings: English queries (Lucene KNN, FAQ snapshot, F1 ranking, intent) with in-process {}", id);
        return new EnglishModel(new NormalizingEmbedder(new CachingEmbedder(
            EnglishModels.create(id, e.batchSize(), executors.embedding(), true), e.queryCacheSize())));
    }

    @Bean(destroyMethod = "close")
    LuceneIndex knowledgeLuceneIndex(KnowledgeProperties properties, Embedder embedder, EnglishModel english) {
        return new LuceneIndex(properties.indexDir().resolve("chunks"), LexicalAnalyzers.create(properties.analyzer()),
            embedder.dimension(), english.embedder());
    }

    @Bean
    KnowledgeRepository knowledgeRepository(DataSource dataSource) {
        return new KnowledgeRepository(dataSource);
    }

    @Bean
    FaqRepository faqRepository(DataSource dataSource) {
        return new FaqRepository(dataSource);
    }

    @Bean
    FaqSnapshotService faqSnapshotService(KnowledgeProperties properties, Embedder embedder, EnglishModel english,
            FaqRepository faq) {
        FaqSnapshotService service = new FaqSnapshotService(properties.effectiveSnapshotDir(), embedder,
            english.embedder(), () -> faq, properties.faq().minSelfHitRate());
        if (!service.hasSnapshot()) {
            try {
                service.rebuildFromDatabase();
            } catch (RuntimeException ex) {
                log.warn("no FAQ snapshot on disk and none could be built from the database: {}", ex.getMessage());
            }
        }
        return service;
    }

    @Bean
    FaqIndex faqIndex(FaqSnapshotService snapshots, Embedder embedder, KnowledgeProperties properties) {
        return new FaqIndex(snapshots, embedder, properties.chain().minFaqScore());
    }

    @Bean
    IngestionService ingestionService(KnowledgeRepository repository, LuceneIndex index, Embedder embedder,
            KnowledgeProperties properties) {
        KnowledgeProperties.Ingest i = properties.ingest();
        return new IngestionService(repository, index, embedder, new Chunker(i.chunkChars(), i.overlapChars()),
            i.maxDocumentSize().toBytes(), i.parseLimits());
    }

    @Bean
    io.sluice.knowledge.ingest.ChunkEditor chunkEditor(KnowledgeRepository repository, LuceneIndex index, Embedder embedder) {
        return new io.sluice.knowledge.ingest.ChunkEditor(repository, index, embedder);
    }

    @Bean
    FaqService faqService(FaqRepository repository, IngestionService ingestion, FaqSnapshotService snapshots,
            KnowledgeProperties properties) {
        return new FaqService(repository, ingestion, snapshots, properties.faq().publishOnChange());
    }

    @Bean
    RetrievalChain retrievalChain(KnowledgeRepository repository, DataSource dataSource, LuceneIndex index,
            FaqSnapshotService snapshots, Embedder embedder, KnowledgeExecutors executors,
            KnowledgeProperties properties,
            org.springframework.beans.factory.ObjectProvider<io.sluice.knowledge.replica.ReadDatabase> readDatabase) {
        // vector retrieval reads from the read replica when one is configured (SLUICE_DB_READ_URL), else the primary
        io.sluice.knowledge.replica.ReadDatabase reads = readDatabase.getIfAvailable();
        DataSource retrievalSource = reads == null ? dataSource : reads.dataSource();
        KnowledgeProperties.Chain c = properties.chain();
        boolean pgvector;
        try {
            pgvector = repository.hasVectorColumn();
        } catch (RuntimeException e) {
            pgvector = false;
        }
        List<RetrievalTier> tiers = new ArrayList<>();
        if (pgvector) {
            // Latin-script queries skip pgvector (Chinese model only) when Lucene KNN with the English model follows
            tiers.add(Tiers.pgvector(new PgVectorSearcher(retrievalSource, c.efSearch()),
                c.luceneKnnFallback() ? index : null));
        }
        if (!pgvector || c.luceneKnnFallback()) {
            tiers.add(Tiers.luceneKnn(index));
        }
        tiers.add(Tiers.bm25(index));
        tiers.add(Tiers.faqSnapshot(snapshots));
        log.info("retrieval chain: {}", tiers.stream().map(RetrievalTier::name).toList());
        return new RetrievalChain(tiers, embedder, executors.tiers(), c.breakerFailures(), c.breakerOpenFor());
    }

    /** The level-0 plan from configuration; callers adjust top-k and thresholds per degradation level. */
    @Bean
    RetrievalPlan defaultRetrievalPlan(KnowledgeProperties properties) {
        KnowledgeProperties.Chain c = properties.chain();
        return new RetrievalPlan(c.topK(), c.minVectorScore(), c.minBm25Score(), c.minFaqScore(), c.vectorTimeout(),
            c.bm25Timeout(), c.faqTimeout(), null, c.minEnglishVectorScore(properties.embedding().englishModel()));
    }

    @Bean
    ExtractiveAnswerComposer extractiveAnswerComposer() {
        return new ExtractiveAnswerComposer(3);
    }

    @Bean
    KnowledgeAnswerService knowledgeAnswerService(RetrievalChain chain, ExtractiveAnswerComposer composer) {
        return new KnowledgeAnswerService(chain, composer);
    }

    /** The one F1 path (chain first, then the snapshot; relevance bars from the caller's plan). */
    @Bean
    io.sluice.knowledge.answer.FaqAnswerFinder faqAnswerFinder(RetrievalChain chain, FaqSnapshotService snapshots,
            Embedder embedder, EnglishModel english, KnowledgeProperties properties) {
        return new io.sluice.knowledge.answer.FaqAnswerFinder(chain, snapshots, embedder, english.embedder())
            .answerVectorWait(properties.faq().answerVectorWait());
    }

    @Bean
    HitTestService hitTestService(RetrievalChain chain, Embedder embedder, KnowledgeExecutors executors) {
        return new HitTestService(chain, embedder, executors.tiers());
    }

    @Bean(destroyMethod = "close")
    KnowledgeBootstrap knowledgeBootstrap(KnowledgeRepository repository, LuceneIndex index,
            IngestionService ingestion, FaqService faq, FaqSnapshotService snapshots, KnowledgeProperties properties) {
        return new KnowledgeBootstrap(repository, index, ingestion, faq, snapshots,
            properties.sample().loadOnFirstStart());
    }

    @EventListener(ApplicationReadyEvent.class)
    void startBootstrap(ApplicationReadyEvent event) {
        event.getApplicationContext().getBean(KnowledgeBootstrap.class).start();
    }
}
