package io.sluice.knowledge.answer;

import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.chain.RetrievalResult;

/** F1 in one call: run the chain, compose the extractive answer, keep the trace. */
public class KnowledgeAnswerService {

    public record F1Answer(ExtractiveAnswer answer, RetrievalResult retrieval) {
    }

    private final RetrievalChain chain;
    private final ExtractiveAnswerComposer composer;

    public KnowledgeAnswerService(RetrievalChain chain, ExtractiveAnswerComposer composer) {
        this.chain = chain;
        this.composer = composer;
    }

    public F1Answer answer(String question, RetrievalPlan plan) {
        RetrievalResult r = chain.retrieve(question, plan);
        return new F1Answer(composer.compose(r), r);
    }
}
