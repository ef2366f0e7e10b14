package io.sluice.knowledge.embedding;

import java.util.List;

/**
 * Turns text into unit-length vectors (cosine similarity = dot product).
 *
 * <p>Implementations are thread-safe. {@link #embedAll} batches; {@link #embed} is meant for
 * queries and may be cached.
 */
public interface Embedder {

    /** Vector dimension (512 for BGE-small-zh v1.5). */
    int dimension();

    /** A stable name for the model, stored with snapshots so vectors of different models never mix. */
    String modelId();

    /** Embeds many texts, in order; one result per input. */
    List<float[]> embedAll(List<String> texts);

    /** Embeds one text (usually a query). */
    default float[] embed(String text) {
        return embedAll(List.of(text)).get(0);
    }
}
