package io.sluice.api.intent;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.chat.ChatProperties;
import io.sluice.knowledge.config.EnglishModel;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.semantics.intent.IntentModel;
import io.sluice.semantics.intent.IntentModelCodec;
import io.sluice.semantics.intent.IntentTaxonomy;
import io.sluice.semantics.intent.IntentTrainings;
import io.sluice.semantics.model.ActiveModel;
import io.sluice.semantics.model.SemanticModels;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

import tools.jackson.databind.ObjectMapper;

/**
 * The operator's taxonomy and trained intent model: the online decision the intent step runs, the
 * training service, the {@code intent} evaluator.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IntentModelProperties.class)
public class IntentModelConfiguration {

    @Bean
    IntentTaxonomy intentTaxonomy(JdbcTemplate jdbc, PlatformTransactionManager transactionManager,
            IntentModelProperties properties, IntentProperties intent) {
        IntentTaxonomy taxonomy = new IntentTaxonomy(jdbc, transactionManager);
        if (properties.seedSample()) {
            SampleTaxonomy.seedIfEmpty(taxonomy, intent.knn().examples());
        }
        return taxonomy;
    }

    @Bean
    IntentFeatures intentFeatures(Embedder embedder, ObjectProvider<EnglishModel> english, RuleIntentClassifier rules) {
        EnglishModel en = english.getIfAvailable();
        return new IntentFeatures(embedder, en == null ? null : en.embedder(), rules);
    }

    @Bean
    TrainedIntents trainedIntents(SemanticModels models, IntentFeatures features, IntentModelProperties properties) {
        ActiveModel<IntentModel> active = models.register(TrainedIntents.KIND, new IntentModelCodec(), null);
        return new TrainedIntents(active, features);
    }

    @Bean
    OnlineIntent onlineIntent(RuleIntentClassifier rules, ObjectProvider<IntentEnhancer> enhancers, ChatProperties chat,
            MeterRegistry meters, TrainedIntents trained, IntentModelProperties properties) {
        return new OnlineIntent(rules, enhancers.orderedStream().toList(), chat.intentConfidentAbove(),
            new IntentMetrics(meters), trained.features(), properties.enabled() ? trained::model : () -> null,
            properties.ruleOverrideAbove());
    }

    @Bean(destroyMethod = "close")
    IntentModelService intentModelService(IntentTaxonomy taxonomy, SemanticModels models, TrainedIntents trained,
            OnlineIntent online, IntentModelProperties properties, ObjectProvider<ObjectMapper> json, MeterRegistry meters,
            JdbcTemplate jdbc) {
        return new IntentModelService(taxonomy, models, trained, online, properties, json.getIfAvailable(ObjectMapper::new),
            meters, new IntentTrainings(jdbc, IntentModelService.STALE_AFTER), instanceName());
    }

    /** Names this instance in the cluster-wide training state (host and process). */
    static String instanceName() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "unknown-host";
        }
        return host + ":" + ProcessHandle.current().pid() + ":" + java.util.UUID.randomUUID().toString().substring(0, 6);
    }

    @Bean
    IntentEvaluator intentEvaluator(OnlineIntent online, IntentTaxonomy taxonomy, TrainedIntents trained,
            ObjectProvider<ObjectMapper> json) {
        return new IntentEvaluator(online, taxonomy, trained, json.getIfAvailable(ObjectMapper::new));
    }
}
