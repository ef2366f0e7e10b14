package io.sluice.api.chat;

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.answer.FaqAnswerFinder;
import io.sluice.knowledge.answer.NoAnswer;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.chain.RetrievalResult;
import io.sluice.semantics.relevance.RelevanceModel;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * F1: the FAQ entry {@link FaqAnswerFinder} picks (vector-tier hits first, then the snapshot, only above
 * the relevance bars in service, in the question's language when it can), no LLM involved; the source
 * names the entry by its key. Nothing relevant: the honest no-answer, which offers a human agent or a
 * deferred answer.
 */
@Component
public class FaqAnsweringStep implements AnsweringStep {

    private final FaqAnswerFinder finder;
    private final RelevanceModel relevance;
    private final RetrievalPlan plan;
    private final MeterRegistry meters;

    public FaqAnsweringStep(FaqAnswerFinder finder, RelevanceModel relevance, RetrievalPlan defaultRetrievalPlan) {
        this(finder, relevance, defaultRetrievalPlan, new SimpleMeterRegistry());
    }

    @Autowired
    public FaqAnsweringStep(FaqAnswerFinder finder, RelevanceModel relevance, RetrievalPlan defaultRetrievalPlan,
            MeterRegistry meters) {
        this.finder = finder;
        this.relevance = relevance;
        this.plan = defaultRetrievalPlan;
        this.meters = meters;
    }

    @Override
    public Answer answer(String message) {
        return answer(message, null);
    }

    @Override
    public Answer answer(String message, RetrievalResult retrieved) {
        RetrievalPlan bars = relevance.apply(plan);
        FaqAnswerFinder.Found found = retrieved == null ? finder.find(message, bars) : finder.find(message, bars, retrieved);
        // the relevance gate's verdicts, by question language: answered from an entry, or the honest no-answer
        meters.counter("sluice.chat.faq.answers", "outcome", found.answered() ? "entry" : "no-answer",
            "language", found.language().code()).increment();
        return of(found);
    }

    /** The F1 answer for what the finder found (the hit-test preview uses this too). */
    public static Answer of(FaqAnswerFinder.Found found) {
        if (!found.answered()) {
            return new Answer(NoAnswer.text(found.language()), FidelityTier.F1, List.of());
        }
        FaqAnswerFinder.Candidate best = found.best();
        return new Answer(best.entry().answer(), FidelityTier.F1,
            List.of(new ChatResponse.Source("faq", best.key(), best.entry().question(), (float) best.score())));
    }
}
