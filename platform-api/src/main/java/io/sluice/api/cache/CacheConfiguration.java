package io.sluice.api.cache;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.masking.PiiMasker;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqIndex;

import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import tools.jackson.databind.ObjectMapper;

/** Registers the semantic cache; the chat pipeline's cache step picks up any {@code SemanticCache} bean. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CacheProperties.class)
public class CacheConfiguration {

    @Bean
    @ConditionalOnProperty(name = "sluice.chat.cache.enabled", havingValue = "true", matchIfMissing = true)
    RedisSemanticCache semanticCache(RedissonClient redisson, Embedder embedder, ObjectMapper json,
            CacheProperties properties, ObjectProvider<FaqIndex> faq, PiiMasker masker, MeterRegistry meters) {
        return new RedisSemanticCache(redisson, embedder, json, properties, () -> {
            FaqIndex index = faq.getIfAvailable();
            return index == null ? 0 : index.version();
        }, new TurnEligibility(masker, properties.maxChars()), new HitVerifier(), meters);
    }
}
