package io.sluice.api.intent;

import java.util.Set;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.io.Resource;
import org.springframework.validation.annotation.Validated;

/**
 * Intent enhancers ({@code sluice.chat.intent.*}); the threshold that decides whether they are asked
 * at all is {@code sluice.chat.intent-confident-above}.
 *
 * @param knn the embedding nearest-neighbour classifier
 * @param llm the LLM on the gateway's intent lane
 */
@Validated
@ConfigurationProperties("sluice.chat.intent")
public record IntentProperties(@Valid @DefaultValue Knn knn, @Valid @DefaultValue Llm llm) {

    /**
     * @param enabled       false = no kNN classifier (rules, then the LLM if enabled)
     * @param k             nearest examples that vote
     * @param minSimilarity below this cosine similarity of the nearest example the classifier abstains
     * @param examples      labelled examples, TSV {@code text<TAB>label}
     * @param vectorCache   directory where the examples' vectors are kept between starts; blank = embed at every start
     */
    public record Knn(@DefaultValue("true") boolean enabled, @DefaultValue("5") @Min(1) @Max(50) int k,
            @DefaultValue("0.5") @DecimalMin("-1.0") @DecimalMax("1.0") double minSimilarity,
            @DefaultValue("classpath:sluice/sample/intent-examples.tsv") @NotNull Resource examples,
            @DefaultValue("") String vectorCache) {

        /** The directory of the kept vectors, or null. */
        public java.nio.file.Path vectorCacheDir() {
            return vectorCache == null || vectorCache.isBlank() ? null : java.nio.file.Path.of(vectorCache);
        }
    }

    /**
     * @param enabledFor paths whose messages may be classified by the LLM ({@code chat}, {@code stream});
     *                   empty = never; {@code openai} stops the start (the front door classifies nothing)
     * @param maxTokens  completion cap of the intent call (the answer is one small JSON object)
     */
    public record Llm(@DefaultValue("chat") @NotNull Set<IntentPath> enabledFor,
            @DefaultValue("64") @Min(8) int maxTokens) {

        public Llm {
            // the front door passes requests through to the gateway without classifying them (no admission, no
            // tiers that an intent would steer), so "openai" would be a setting that silently does nothing
            if (enabledFor != null && enabledFor.contains(IntentPath.OPENAI)) {
                throw new IllegalArgumentException("sluice.chat.intent.llm.enabled-for: 'openai' is not supported — "
                    + "the OpenAI-compatible front door (/v1) does not classify intent; use chat and/or stream");
            }
        }
    }
}
