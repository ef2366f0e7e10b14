package io.sluice.batch.reindex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.progress.JobProgress;
import io.sluice.batch.support.BatchTestApplication;
import io.sluice.batch.support.TestKnowledge;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.chain.RetrievalResult;
import io.sluice.knowledge.chain.Tiers;
import io.sluice.knowledge.ingest.Chunker;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.Vectors;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.vector.PgVectorSearcher;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The knowledge-reindex job re-embeds every chunk and rebuilds the Lucene index aside, then swaps: the
 * retrieval chain (Lucene KNN → BM25, no FAQ fallback to hide a gap) is hammered with known queries
 * while the job runs, and not one query fails or comes back empty. The pgvector rows are re-embedded
 * too (written aside, swapped in one transaction): stale vectors planted before the run are replaced,
 * and pgvector queries hammered through the run all succeed with results.
 */
class KnowledgeReindexTest {

    /** The document tiers as the application wires them, on a Lucene directory of this instance's own. */
    @Configuration(proxyBeanMethods = false)
    static class DocumentTiers {

        @Bean(destroyMethod = "close")
        LuceneIndex testLuceneIndex() throws Exception {
            return new LuceneIndex(Files.createTempDirectory("batch-reindex"), LexicalAnalyzers.create("smartcn"),
                TestKnowledge.embedder().dimension());
        }

        @Bean
        IngestionService testIngestionService(DataSource dataSource, LuceneIndex index) {
            return new IngestionService(new KnowledgeRepository(dataSource), index, TestKnowledge.embedder(),
                new Chunker(400, 80), 5_000_000);
        }

        @Bean(destroyMethod = "shutdownNow")
        ExecutorService testTierPool() {
            return Executors.newFixedThreadPool(4);
        }

        @Bean
        PgVectorSearcher testPgVector(DataSource dataSource) {
            return new PgVectorSearcher(dataSource, 40);
        }

        @Bean
        RetrievalChain testChain(LuceneIndex index, ExecutorService testTierPool) {
            return new RetrievalChain(List.of(Tiers.luceneKnn(index), Tiers.bm25(index)), TestKnowledge.embedder(),
                testTierPool, 5, Duration.ofSeconds(30));
        }
    }

    static ConfigurableApplicationContext context;

    @BeforeAll
    static void start() {
        Map<String, Object> p = BatchTestApplication.properties();
        p.put("sluice.batch.worker-id", "reindex");
        p.put("spring.main.web-application-type", "none");
        context = new SpringApplicationBuilder(BatchTestApplication.class, DocumentTiers.class).properties(p).run();
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void reindexSwapsTheIndexWithoutASingleFailedOrEmptyQuery() throws Exception {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        IngestionService ingestion = context.getBean(IngestionService.class);
        List<String> ids = new ArrayList<>();
        List<String> queries = List.of("退货运费 " + tag + " 由卖家承担吗", "发票 " + tag + " 抬头如何修改",
            "会员积分 " + tag + " 多久过期");
        String[] texts = {
            "# 退货运费 " + tag + "\n\n因质量问题退货，运费由卖家承担；七天无理由退货由买家承担运费。",
            "# 发票 " + tag + "\n\n发票抬头开错时，可在订单详情页申请重开发票，一个工作日内处理。",
            "# 会员积分 " + tag + "\n\n会员积分自获得之日起十二个月内有效，过期自动清零。"};
        try {
            for (int i = 0; i < texts.length; i++) {
                String id = "reindex-" + tag + "-" + i;
                ids.add(id);
                ingestion.ingest(DocumentRequest.of(id, id + ".md", "text/markdown",
                    texts[i].getBytes(StandardCharsets.UTF_8)));
            }
            RetrievalChain chain = context.getBean(RetrievalChain.class);
            // generous per-tier timeouts: the machine is busy re-embedding; a timeout is not what is tested here
            RetrievalPlan plan = RetrievalPlan.defaults().withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10),
                Duration.ofSeconds(1));
            for (int i = 0; i < queries.size(); i++) {
                assertThat(chain.retrieve(queries.get(i), plan).passages().get(0).source().documentId())
                    .isEqualTo(ids.get(i));
            }

            // "vectors of an older model": the test documents' pgvector rows point somewhere unrelated
            Embedder embedder = TestKnowledge.embedder();
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            String stale = Vectors.toPgLiteral(embedder.embed("天气预报 " + tag + " 明天多云转晴"));
            for (String id : ids) {
                jdbc.update("""
                    UPDATE knowledge_chunk SET embedding = ?::vector
                    WHERE document_id = (SELECT id FROM knowledge_document WHERE external_id = ?)""", stale, id);
            }

            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong answered = new AtomicLong();
            AtomicLong vectorAnswered = new AtomicLong();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            List<Thread> hammers = new ArrayList<>();
            PgVectorSearcher pgvector = context.getBean(PgVectorSearcher.class);
            List<float[]> queryVectors = queries.stream().map(embedder::embed).toList();
            Thread vectorHammer = new Thread(() -> {
                for (int n = 0; running.get(); n++) {
                    int q = n % queries.size();
                    try {
                        if (pgvector.search(queryVectors.get(q), SearchFilter.validNow(), 5).isEmpty()) {
                            failures.add("pgvector empty: " + queries.get(q));
                        } else {
                            vectorAnswered.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        failures.add("pgvector error: " + e);
                    }
                }
            }, "hammer-pgvector");
            vectorHammer.start();
            hammers.add(vectorHammer);
            for (int t = 0; t < 2; t++) {
                Thread thread = new Thread(() -> {
                    for (int n = 0; running.get(); n++) {
                        int q = n % queries.size();
                        try {
                            RetrievalResult r = chain.retrieve(queries.get(q), plan);
                            if (r.passages().isEmpty()) {
                                failures.add("empty: " + queries.get(q) + " via " + r.path());
                            } else if (r.passages().stream().noneMatch(p -> p.source().documentId().equals(ids.get(q)))) {
                                failures.add("wrong: " + queries.get(q) + " via " + r.path());
                            } else {
                                answered.incrementAndGet();
                            }
                        } catch (RuntimeException e) {
                            failures.add("error: " + e);
                        }
                    }
                }, "hammer-" + t);
                thread.start();
                hammers.add(thread);
            }
            long before = answered.get();
            long vectorBefore = vectorAnswered.get();
            await().atMost(Duration.ofSeconds(30))
                .until(() -> answered.get() > before + 10 && vectorAnswered.get() > vectorBefore + 10);

            JobControl jobs = context.getBean(JobControl.class);
            long executionId = jobs.launch(KnowledgeReindex.JOB_NAME, Map.of("reembed", "true")).getId();
            JobRepository repository = context.getBean(JobRepository.class);
            await().atMost(Duration.ofSeconds(170)).pollInterval(Duration.ofMillis(100))
                .until(() -> !repository.getJobExecution(executionId).isRunning());
            long afterSwap = answered.get();
            long vectorAfterSwap = vectorAnswered.get();
            await().atMost(Duration.ofSeconds(30))
                .until(() -> answered.get() > afterSwap + 10 && vectorAnswered.get() > vectorAfterSwap + 10);
            running.set(false);
            for (Thread thread : hammers) {
                thread.join(30_000);
            }

            JobExecution execution = repository.getJobExecution(executionId);
            assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
            JobProgress progress = jobs.progress(executionId);
            assertThat(progress.done()).isGreaterThanOrEqualTo(texts.length);
            assertThat(failures).isEmpty();
            assertThat(answered.get()).isGreaterThan(20);
            assertThat(vectorAnswered.get()).isGreaterThan(20);

            // the pgvector rows carry fresh vectors of their own text again, and find their documents
            for (int i = 0; i < ids.size(); i++) {
                List<Map<String, Object>> rows = jdbc.queryForList("""
                    SELECT c.heading, c.content, c.embedding::text AS embedding FROM knowledge_chunk c
                    JOIN knowledge_document d ON d.id = c.document_id WHERE d.external_id = ?""", ids.get(i));
                assertThat(rows).isNotEmpty();
                for (Map<String, Object> row : rows) {
                    String heading = (String) row.get("heading");
                    String content = (String) row.get("content");
                    float[] fresh = embedder.embed(heading == null || heading.isBlank() ? content : heading + "\n" + content);
                    assertThat(Vectors.dot(fresh, parse((String) row.get("embedding")))).isGreaterThan(0.999f);
                }
                assertThat(pgvector.search(queryVectors.get(i), SearchFilter.validNow(), 1).get(0).source().documentId())
                    .isEqualTo(ids.get(i));
            }
            assertThat(jdbc.queryForObject("SELECT count(*) FROM knowledge_chunk_embedding_next", Long.class)).isZero();
        } finally {
            ids.forEach(ingestion::delete);
        }
    }

    static float[] parse(String literal) {
        String[] parts = literal.substring(1, literal.length() - 1).split(",");
        float[] v = new float[parts.length];
        for (int i = 0; i < parts.length; i++) {
            v[i] = Float.parseFloat(parts[i]);
        }
        return v;
    }
}
