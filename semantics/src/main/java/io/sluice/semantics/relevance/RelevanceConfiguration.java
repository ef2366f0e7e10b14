package io.sluice.semantics.relevance;

import io.sluice.knowledge.answer.FaqAnswerFinder;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.config.EnglishModel;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.semantics.model.SemanticModels;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import tools.jackson.databind.ObjectMapper;

/** Relevance: the bars in service (kind {@code relevance}), their calibration and the {@code faq-queries} evaluation. */
@Configuration(proxyBeanMethods = false)
public class RelevanceConfiguration {

    /** Calibration keeps at least this share of correctly answered in-domain questions above each bar. */
    static final double MAX_IN_DOMAIN_LOSS = 0.01;

    @Bean
    RelevanceModel relevanceModel(SemanticModels models, RetrievalPlan defaultRetrievalPlan,
            ObjectProvider<ObjectMapper> json, ObjectProvider<EnglishModel> english) {
        EnglishModel en = english.getIfAvailable();
        return new RelevanceModel(models, defaultRetrievalPlan, json.getIfAvailable(ObjectMapper::new),
            en == null || en.id() == null ? "none" : en.id());
    }

    @Bean
    RelevanceCalibrator relevanceCalibrator(RetrievalChain chain, Embedder embedder) {
        return new RelevanceCalibrator(chain, embedder, MAX_IN_DOMAIN_LOSS);
    }

    @Bean
    FaqQueryEvaluator faqQueryEvaluator(FaqAnswerFinder finder, RelevanceModel relevance,
            RetrievalPlan defaultRetrievalPlan, ObjectProvider<ObjectMapper> json) {
        return new FaqQueryEvaluator(finder, relevance, defaultRetrievalPlan, json.getIfAvailable(ObjectMapper::new));
    }
}
