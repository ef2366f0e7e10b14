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

    /** The default English model. */
    public static final String DEFAULT = OnnxMiniLmEmbedder.MODEL_ID;
    /** Every selectable id (besides {@code none}). */
    public static final List<String> IDS = List.of(OnnxBgeEnEmbedder.MODEL_ID, OnnxMiniLmEmbedder.MODEL_ID);

    private EnglishModels() {
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

    /** The raw in-process model (callers put it behind the front: {@link NormalizingEmbedder}). */
    public static OnnxEmbedder create(String id, int batchSize, Executor executor, boolean memoize) {
        return switch (canonical(id)) {
            case OnnxBgeEnEmbedder.MODEL_ID -> new OnnxBgeEnEmbedder(batchSize, executor, memoize);
            default -> new OnnxMiniLmEmbedder(batchSize, executor, memoize);
        };
    }
}
