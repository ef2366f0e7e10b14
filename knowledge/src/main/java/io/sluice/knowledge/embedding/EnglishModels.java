package io.sluice.knowledge.embedding;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;

/**
 * The in-process English models the route for Latin-script text can use
 * ({@code sluice.knowledge.embedding.english-model}). Both are 384-dimensional, so a vector's length never
 * tells which model made it: every store of English vectors records the model id (FAQ snapshot header,
 * Lucene commit data), and vectors of another model are never compared with a query vector.
 */
public final class EnglishModels {

    /**
     * The default English model: BGE-small-en v1.5 ranked FAQ entries better than all-MiniLM-L6-v2 on the
     * team's English tune and held-out queries (docs/benchmarks-knowledge.md, "FAQ ranking quality").
     */
    public static final String DEFAULT = OnnxBgeEnEmbedder.MODEL_ID;
    /**
     * The main model's (BGE-small-zh) default cosine bar ({@code min-vector-score}); an English model's cosine is
     * mapped so that its own bar lands here ({@link #toMainScale}).
     */
    public static final double MAIN_BAR = 0.5;
    /** Every selectable id (besides {@code none}). */
    public static final List<String> IDS = List.of(OnnxBgeEnEmbedder.MODEL_ID, OnnxMiniLmEmbedder.MODEL_ID);

    private EnglishModels() {
    }

    /** The model part of a stored id ({@code bge-small-en-v1.5-q+nfkc-cf-hans} → {@code bge-small-en-v1.5-q}). */
    public static String base(String modelId) {
        if (modelId == null) {
            return null;
        }
        int plus = modelId.indexOf('+');
        return plus < 0 ? modelId : modelId.substring(0, plus);
    }

    /** True for {@code none} / blank: no English model. */
    public static boolean disabled(String id) {
        return id == null || id.isBlank() || "none".equalsIgnoreCase(id.trim());
    }

    /** The canonical id for a configured one; refuses an unknown id naming the selectable ones. */
    public static String canonical(String id) {
        String wanted = id == null ? "" : id.trim().toLowerCase(Locale.ROOT);
        for (String known : IDS) {
            if (known.equals(wanted)) {
                return known;
            }
        }
        throw new IllegalArgumentException("sluice.knowledge.embedding.english-model: unknown model '" + id + "' ("
            + String.join(", ", IDS) + " or none)");
    }

    /**
     * The cosine an English-model hit needs by default (before an operator calibrates the relevance bars): where
     * off-topic English questions stop and correctly matched ones start on the team's English tune queries.
     * MiniLM spreads unrelated sentences near 0 and paraphrases over 0.4-0.8 (bar 0.3); BGE-small-en puts
     * unrelated English at 0.4-0.62 and matched questions from 0.71 up (bar 0.65, the calibrator's choice on the
     * tune queries). {@code modelId} may carry the front's suffix ({@code +nfkc-cf-hans}); unknown ids get MiniLM's.
     */
    public static double defaultMinScore(String modelId) {
        return modelId != null && modelId.startsWith(OnnxBgeEnEmbedder.MODEL_ID) ? 0.65 : 0.3;
    }

    /**
     * An English-model cosine on the main model's scale, linear, with the model's default bar mapped to
     * {@link #MAIN_BAR} and 1 to 1 ({@code 1 - (1 - c) × (1 - MAIN_BAR) / (1 - bar)}; MiniLM: 0.3 → 0.5), so one
     * FAQ-score bar serves both routes.
     */
    public static double toMainScale(String modelId, double cosine) {
        return 1 - (1 - cosine) * stretch(modelId);
    }

    /** The factor of {@link #toMainScale}. */
    public static double stretch(String modelId) {
        return (1 - MAIN_BAR) / (1 - defaultMinScore(modelId));
    }

    /** The raw in-process model (callers put it behind the front: {@link NormalizingEmbedder}). */
    public static OnnxEmbedder create(String id, int batchSize, Executor executor, boolean memoize) {
        return switch (canonical(id)) {
            case OnnxBgeEnEmbedder.MODEL_ID -> new OnnxBgeEnEmbedder(batchSize, executor, memoize);
            default -> new OnnxMiniLmEmbedder(batchSize, executor, memoize);
        };
    }
}
