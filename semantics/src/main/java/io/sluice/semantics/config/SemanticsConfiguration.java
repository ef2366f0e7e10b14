package io.sluice.semantics.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.semantics.evaluation.EvaluationStore;
import io.sluice.semantics.model.SemanticModelStore;
import io.sluice.semantics.model.SemanticModels;

import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

import tools.jackson.databind.ObjectMapper;

/** Wires the semantics module: the versioned store of learned models and their cluster-wide activation. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SemanticsProperties.class)
public class SemanticsConfiguration {

    @Bean
    SemanticModelStore semanticModelStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        return new SemanticModelStore(jdbc, transactionManager);
    }

    @Bean
    SemanticModels semanticModels(SemanticModelStore store, ObjectProvider<RedissonClient> redisson,
            SemanticsProperties properties, MeterRegistry meters) {
        return new SemanticModels(store, redisson.getIfAvailable(), properties.keyPrefix() + "models",
            properties.catchUpInterval(), meters);
    }

    @Bean
    EvaluationStore evaluationStore(JdbcTemplate jdbc, ObjectProvider<ObjectMapper> json) {
        return new EvaluationStore(jdbc, json.getIfAvailable(ObjectMapper::new));
    }
}
