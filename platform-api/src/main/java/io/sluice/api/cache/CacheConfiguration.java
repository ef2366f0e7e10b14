package io.sluice.api.cache;

import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.masking.PiiMasker;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqIndex;
import io.sluice.semantics.pairs.HitReviews;
import io.sluice.semantics.pairs.PairVerifier;
import io.sluice.semantics.pairs.PairsProperties;

import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.function.SingletonSupplier;

import tools.jackson.databind.ObjectMapper;

/** Registers the semantic cache; the chat pipeline's cache step picks up any {@code SemanticCache} bean. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({CacheProperties.class, CacheRebuildProperties.class})
public class CacheConfiguration {

    @Bean
    @ConditionalOnProperty(name = "sluice.chat.cache.enabled", havingValue = "true", matchIfMissing = true)
    RedisSemanticCache semanticCache(RedissonClient redisson, Embedder embedder, ObjectMapper json,
            CacheProperties properties, ObjectProvider<FaqIndex> faq, PiiMasker masker, HitVerifier verifier,
            ObjectProvider<HitReviews> reviews, ObjectProvider<DegradationControl> degradation, MeterRegistry meters) {
        // the index is resolved once it exists, not on every lookup (a bean lookup costs more than the lookup)
        Supplier<FaqIndex> index = SingletonSupplier.of(faq::getIfAvailable);
        RedisSemanticCache cache = new RedisSemanticCache(redisson, embedder, json, properties, () -> {
            FaqIndex current = index.get();
            return current == null ? 0 : current.version();
        }, new TurnEligibility(masker, properties.maxChars()), verifier, meters);
        DegradationControl control = degradation.getIfAvailable();
        if (control != null) {
            cache.levels(control::knobs);   // grace, short forms and better levels' routes: the one level→knobs map
        }
        HitReviews queue = reviews.getIfAvailable();
        if (queue != null) {
            cache.reviewSink(new ReviewSampler(queue, meters));
        }
        return cache;
    }

    /** Evaluator kind {@code cache-pairs}: labelled pairs through TurnEligibility → L2 matcher + verifier per level. */
    @Bean
    CachePairsEvaluator cachePairsEvaluator(Embedder embedder, PiiMasker masker, CacheProperties properties,
            HitVerifier verifier, ObjectProvider<DegradationControl> degradation) {
        return new CachePairsEvaluator(embedder, new TurnEligibility(masker, properties.maxChars()), verifier, level -> {
            DegradationControl control = degradation.getIfAvailable();
            DegradationLevel l = DegradationLevel.valueOf(level);
            return control == null ? io.sluice.governance.degradation.DegradationProperties.defaults().levels().get(l)
                .cacheThreshold() : control.knobs(l).cacheThreshold();
        });
    }

    /** The L2 verifier: the active pair-verifier model when the semantics module is present, else the rules. */
    @Bean
    HitVerifier hitVerifier(ObjectProvider<PairVerifier> pairs, ObjectProvider<PairsProperties> properties) {
        PairVerifier verifier = pairs.getIfAvailable();
        PairsProperties p = properties.getIfAvailable(PairsProperties::defaults);
        return verifier == null ? new HitVerifier() : new HitVerifier(verifier, p.maxCandidates());
    }

    /** Maintenance of the cache for batch-jobs' semantic-cache-rebuild job; warms the route of level L0. */
    @Bean
    @ConditionalOnProperty(name = "sluice.chat.cache.enabled", havingValue = "true", matchIfMissing = true)
    CacheRebuild cacheRebuild(RedisSemanticCache cache, JdbcClient jdbc, ObjectMapper json, PiiMasker masker,
            CacheProperties properties, CacheRebuildProperties rebuild, ObjectProvider<DegradationControl> degradation,
            MeterRegistry meters) {
        return new CacheRebuild(cache, jdbc, json, masker, new TurnEligibility(masker, properties.maxChars()), rebuild,
            () -> {
                DegradationControl control = degradation.getIfAvailable();
                return control == null ? "default" : control.knobs(DegradationLevel.L0).modelRoute();
            }, meters);
    }
}
