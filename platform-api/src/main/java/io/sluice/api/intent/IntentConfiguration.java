package io.sluice.api.intent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.gateway.DisabledLlmGateway;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.knowledge.embedding.Embedder;

import io.sluice.semantics.intent.IntentTaxonomy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.util.function.SingletonSupplier;

/**
 * The intent enhancers, in the order the intent step asks them: the kNN classifier (cheap, local),
 * then the LLM (budgeted, on the gateway's intent lane).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IntentProperties.class)
public class IntentConfiguration {

    private static final Logger log = LoggerFactory.getLogger(IntentConfiguration.class);

    @Bean
    @Order(1)
    @ConditionalOnProperty(name = "sluice.chat.intent.knn.enabled", havingValue = "true", matchIfMissing = true)
    KnnIntentClassifier knnIntentClassifier(Embedder embedder, IntentProperties properties) {
        IntentProperties.Knn knn = properties.knn();
        List<IntentExamples.Example> examples;
        try (InputStream in = knn.examples().getInputStream()) {
            examples = IntentExamples.read(in, knn.examples().getDescription());
        } catch (IOException e) {
            throw new UncheckedIOException("sluice.chat.intent.knn.examples: cannot read " + knn.examples(), e);
        }
        KnnVote vote = new KnnVote(knn.k(), knn.minSimilarity());
        try {
            return KnnIntentClassifier.build(embedder, examples, vote, knn.vectorCacheDir());
        } catch (RuntimeException e) {
            // e.g. a remote embedding service that is down: start anyway, the rules (and the LLM) decide
            log.error("intent kNN disabled: embedding the {} examples failed", examples.size(), e);
            return KnnIntentClassifier.build(embedder, List.of(), vote);
        }
    }

    /** LLM intent only while the level still admits lane B (L0, L1): under pressure the LLM is kept for answers. */
    @Bean
    @Order(2)
    LlmIntentEnhancer llmIntentEnhancer(ObjectProvider<LlmGateway> gateway, ObjectProvider<DegradationControl> degradation,
            IntentProperties properties, MeterRegistry meters, ObjectProvider<IntentTaxonomy> taxonomy,
            ObjectProvider<OnlineIntent> online) {
        // the prompt lists the operator's active taxonomy (read lazily: OnlineIntent is built from the enhancers);
        // beans resolved once they exist, not on every message
        Supplier<DegradationControl> control = SingletonSupplier.of(degradation::getIfAvailable);
        TaxonomyCatalog catalog = new TaxonomyCatalog(SingletonSupplier.of(taxonomy::getIfAvailable), () -> {
            OnlineIntent o = online.getIfAvailable();
            return o == null ? null : o.model();
        }, java.util.concurrent.TimeUnit.SECONDS.toNanos(15), System::nanoTime);
        return new LlmIntentEnhancer(gateway.getIfAvailable(DisabledLlmGateway::new), properties.llm().enabledFor(),
            properties.llm().maxTokens(), () -> {
                DegradationControl levels = control.get();
                return levels == null || levels.knobs().laneBAdmitted();
            }, meters, () -> {
                DegradationControl levels = control.get();
                return levels == null ? io.sluice.governance.gateway.LlmParameters.NONE
                    : levels.knobs().parameters(io.sluice.governance.gateway.Lane.INTENT,
                        io.sluice.governance.gateway.LlmParameters.NONE);
            }, catalog);
    }
}
