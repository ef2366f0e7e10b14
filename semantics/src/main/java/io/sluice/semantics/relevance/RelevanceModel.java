package io.sluice.semantics.relevance;

import java.nio.charset.StandardCharsets;

import io.sluice.knowledge.answer.RelevanceThresholds;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.embedding.EnglishModels;
import io.sluice.knowledge.embedding.OnnxMiniLmEmbedder;
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
    /** The English model whose cosines the English bar is on (null: none configured). */
    private final String englishModel;

    public RelevanceModel(SemanticModels models, RetrievalPlan configured, ObjectMapper json) {
        this(models, configured, json, null);
    }

    /**
     * @param englishModel the configured English model's id (its base part is stored with every calibration): a
     *                     version calibrated with another English model keeps its other bars, but its English bar
     *                     — a cosine of the other model, on another scale — is replaced by the configured one
     */
    public RelevanceModel(SemanticModels models, RetrievalPlan configured, ObjectMapper json, String englishModel) {
        this.json = json;
        this.englishModel = EnglishModels.base(englishModel);
        this.active = models.register(KIND, codec(json, this.englishModel, configured.minEnglishVectorScore()),
            RelevanceThresholds.of(configured));
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
        tools.jackson.databind.node.ObjectNode n = json.valueToTree(t);
        if (englishModel != null) {
            n.put("englishModel", englishModel);
        }
        return json.writeValueAsBytes(n);
    }

    /** Versions stored before the English model was recorded were calibrated with the only one there was. */
    static final String UNRECORDED_ENGLISH_MODEL = OnnxMiniLmEmbedder.MODEL_ID;

    static ModelCodec<RelevanceThresholds> codec(ObjectMapper json) {
        return codec(json, null, 0);
    }

    /**
     * Reads a stored version; when {@code englishModel} is given and the version's English bar was calibrated with
     * another English model, that bar is replaced by {@code configuredEnglish} (fail safe: a MiniLM bar of 0.33
     * would let nearly every English question through BGE-small-en, whose unrelated sentences score 0.4-0.6).
     */
    static ModelCodec<RelevanceThresholds> codec(ObjectMapper json, String englishModel, double configuredEnglish) {
        ModelCodec<RelevanceThresholds> plain = plainCodec(json);
        if (englishModel == null) {
            return plain;
        }
        return payload -> {
            RelevanceThresholds t = plain.decode(payload);
            JsonNode n = json.readTree(new String(payload, StandardCharsets.UTF_8));
            String calibratedWith = n.has("englishModel") && n.get("englishModel").isString()
                ? n.get("englishModel").asString() : UNRECORDED_ENGLISH_MODEL;
            return englishModel.equals(calibratedWith) ? t
                : new RelevanceThresholds(t.vector(), configuredEnglish, t.bm25(), t.faq());
        };
    }

    private static ModelCodec<RelevanceThresholds> plainCodec(ObjectMapper json) {
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
