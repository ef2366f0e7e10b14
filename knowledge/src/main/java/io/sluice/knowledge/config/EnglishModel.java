package io.sluice.knowledge.config;

import io.sluice.knowledge.embedding.Embedder;

/**
 * The optional English model (all-MiniLM-L6-v2) shared by the Lucene index and the FAQ snapshot.
 *
 * @param embedder the model, or null when {@code sluice.knowledge.embedding.english-model} is {@code none}
 */
public record EnglishModel(Embedder embedder) {
}
