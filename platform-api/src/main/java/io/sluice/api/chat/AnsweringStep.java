package io.sluice.api.chat;

import io.sluice.knowledge.chain.RetrievalResult;

/** Produces the answer to one message; runs while the request holds an interactive permit. */
public interface AnsweringStep {

    Answer answer(String message);

    /** The same, reusing the chain result the LLM tiers already have for this message (null = none yet). */
    default Answer answer(String message, RetrievalResult retrieved) {
        return answer(message);
    }
}
