package io.sluice.api.chat;

import java.util.List;

import io.sluice.knowledge.chain.RetrievalResult;

/**
 * Knowledge retrieval for the LLM tiers: the knowledge module's {@code RetrievalChain} with the
 * configured plan and the level's top-k (wired in {@link ChatConfiguration}). A seam so the
 * answering step is tested without an index.
 */
@FunctionalInterface
public interface PassageRetriever {

    RetrievalResult retrieve(String question, int topK);

    /** Finds nothing (no knowledge module): the LLM tiers fall back to the FAQ. */
    PassageRetriever NONE = (question, topK) -> new RetrievalResult(question, List.of(), null, List.of(), 0, 0);
}
