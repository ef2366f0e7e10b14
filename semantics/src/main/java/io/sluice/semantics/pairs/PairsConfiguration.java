package io.sluice.semantics.pairs;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.semantics.model.SemanticModels;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

/** Wires the cache's pair verifier: labelled pairs, the review queue, training and the online verifier. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PairsProperties.class)
public class PairsConfiguration {

    @Bean
    PairStore pairStore(JdbcTemplate jdbc, PlatformTransactionManager tx) {
        return new PairStore(jdbc, tx);
    }

    @Bean
    HitReviews hitReviews(JdbcTemplate jdbc, PairStore pairs, PlatformTransactionManager tx, PairsProperties properties) {
        return new HitReviews(jdbc, pairs, tx, properties.reviewSampleRate(), properties.reviewKeep());
    }

    @Bean
    CacheVerification cacheVerification(SemanticModels models, PairStore pairs, Embedder embedder,
            PairsProperties properties, MeterRegistry meters) {
        return new CacheVerification(models, pairs, new PairTrainer(embedder, new QuestionAnalyzer(), properties),
            properties, meters);
    }

    @Bean
    PairVerifier pairVerifier(CacheVerification verification) {
        return new PairVerifier(verification.active(), new QuestionAnalyzer());
    }
}
