package io.sluice.app.health;

import javax.sql.DataSource;

import io.sluice.app.runtime.DatabaseConfiguration.DatabaseMode;
import io.sluice.knowledge.faq.FaqIndex;
import io.sluice.knowledge.sample.KnowledgeBootstrap;

import org.redisson.api.RedissonClient;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Health that tells which parts, and so which answer tiers, are up. The built-in {@code db}
 * indicator covers the database connection.
 */
@Configuration(proxyBeanMethods = false)
public class TierHealthConfiguration {

    @Bean
    HealthIndicator redisHealthIndicator(RedissonClient redisson) {
        return () -> {
            try {
                redisson.getBucket("sluice:health").isExists();
                return Health.up().withDetail("role", "permits, caches, shared state").build();
            } catch (RuntimeException e) {
                return Health.down().withDetail("error", e.getClass().getSimpleName()).build();
            }
        };
    }

    @Bean
    HealthIndicator luceneIndexHealthIndicator(FaqIndex faqIndex) {
        return () -> {
            int documents = faqIndex.size();
            return documents < 0
                ? Health.down().withDetail("faqIndex", "unreadable").build()
                : Health.up().withDetail("faqDocuments", documents).build();
        };
    }

    /**
     * The start-up knowledge work (first start: the sample knowledge base loads in the background after
     * "ready", FAQ first): its stage and progress. Up while loading: the FAQ tier answers what is loaded.
     */
    @Bean
    HealthIndicator knowledgeHealthIndicator(KnowledgeBootstrap bootstrap, FaqIndex faqIndex) {
        return () -> {
            KnowledgeBootstrap.Progress p = bootstrap.progress();
            Health.Builder health = Health.up().withDetail("state", p.state()).withDetail("stage", p.stage());
            if (p.total() > 0) {
                health.withDetail("done", p.done()).withDetail("total", p.total())
                    .withDetail("percent", Math.round(100.0 * p.done() / p.total()));
            }
            return health.withDetail("faqEntries", Math.max(0, faqIndex.size())).build();
        };
    }

    /** Which engine serves the vector tier: pgvector when the database has it, Lucene KNN otherwise. */
    @Bean
    HealthIndicator vectorTierHealthIndicator(DataSource dataSource, DatabaseMode mode) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        return () -> {
            try {
                Integer pgvector = jdbc.queryForObject(
                    "SELECT count(*) FROM pg_extension WHERE extname = 'vector'", Integer.class);
                boolean hasPgvector = pgvector != null && pgvector > 0;
                return Health.up()
                    .withDetail("engine", hasPgvector ? "pgvector (HNSW, cosine)" : "lucene-knn")
                    .withDetail("database", mode.embedded() ? "embedded" : "external")
                    .build();
            } catch (RuntimeException e) {
                return Health.up().withDetail("engine", "lucene-knn (database unreachable)").build();
            }
        };
    }

    /** The LLM is optional: without one the platform answers at F1 and says so. */
    @Bean
    HealthIndicator llmHealthIndicator(Environment env) {
        return () -> {
            String baseUrl = env.getProperty("sluice.llm.base-url");
            boolean configured = baseUrl != null && !baseUrl.isBlank();
            return Health.up()
                .withDetail("configured", configured)
                .withDetail("tiers", configured ? "F4-F1" : "F1 only (no LLM configured)")
                .build();
        };
    }
}
