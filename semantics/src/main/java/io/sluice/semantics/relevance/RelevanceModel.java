package io.sluice.semantics.relevance;

import java.nio.charset.StandardCharsets;

import io.sluice.knowledge.answer.RelevanceThresholds;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.semantics.model.ActiveModel;
import io.sluice.semantics.model.ModelCodec;
import io.sluice.semantics.model.SemanticModels;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The relevance thresholds in service (semantic model kind {@code relevance}): calibrated versions are
 * stored, activated cluster-wide and rolled back through {@link SemanticModels}; until one is active the
 * configured chain thresholds answer. Every retrieval the chat, the hit test and the evaluation make
 * takes its bars from here.
 */
public class RelevanceModel {

    public static final String KIND = "relevance";

    private final ActiveModel<RelevanceThresholds> active;
    private final ObjectMapper json;

    public RelevanceModel(SemanticModels models, RetrievalPlan configured, ObjectMapper json) {
        this.json = json;
        this.active = models.register(KIND, codec(json), RelevanceThresholds.of(configured));
    }

    public RelevanceThresholds thresholds() {
        return active.get();
    }

    /** The stored version answering (0 = the configured default). */
    public long version() {
        return active.version();
    }

    /** {@code plan} with the bars in service. */
    public RetrievalPlan apply(RetrievalPlan plan) {
        return thresholds().apply(plan);
    }

    public byte[] encode(RelevanceThresholds t) {
        return json.writeValueAsBytes(t);
    }

    static ModelCodec<RelevanceThresholds> codec(ObjectMapper json) {
        return payload -> {
            JsonNode n;
            try {
                n = json.readTree(new String(payload, StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("a relevance model is a JSON object", e);
            }
            for (String field : new String[] {"vector", "englishVector", "bm25", "faq"}) {
                if (n == null || !n.has(field) || !n.get(field).isNumber()) {
                    throw new IllegalArgumentException("a relevance model needs a number '" + field + "'");
                }
            }
            return new RelevanceThresholds(n.get("vector").asDouble(), n.get("englishVector").asDouble(),
                n.get("bm25").asDouble(), n.get("faq").asDouble());
        };
    }
}
