package io.sluice.knowledge.config;

import io.sluice.knowledge.embedding.Embedder;

/**
 * The optional English model ({@code sluice.knowledge.embedding.english-model}: BGE-small-en v1.5 by default,
 * or all-MiniLM-L6-v2) shared by the Lucene index, the FAQ snapshot, the F1 ranking and the intent features.
 *
 * @param embedder the model behind the embedding front, or null when the setting is {@code none}
 */
public record EnglishModel(Embedder embedder) {

    /** The model's id as stored with its vectors ({@code bge-small-en-v1.5-q+nfkc-cf-hans}), or null for none. */
    public String id() {
        return embedder == null ? null : embedder.modelId();
    }
}
