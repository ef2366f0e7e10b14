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
    private final FaqAnswerMemo memo;

    public FaqAnsweringStep(FaqAnswerFinder finder, RelevanceModel relevance, RetrievalPlan defaultRetrievalPlan) {
        this(finder, relevance, defaultRetrievalPlan, new SimpleMeterRegistry(), FaqAnswerMemo.OFF);
    }

    @Autowired
    public FaqAnsweringStep(FaqAnswerFinder finder, RelevanceModel relevance, RetrievalPlan defaultRetrievalPlan,
            MeterRegistry meters, FaqAnswerMemo memo) {
        this.finder = finder;
        this.relevance = relevance;
        this.plan = defaultRetrievalPlan;
        this.meters = meters;
        this.memo = memo;
    }

    @Override
    public Answer answer(String message) {
        return answer(message, null);
    }

    @Override
    public Answer answer(String message, RetrievalResult retrieved) {
        RetrievalPlan bars = relevance.apply(plan);
        // a chain result computed for the LLM tiers is used as it is; alone, F1 answers a repeated question from memory
        FaqAnswerMemo.Remembered answer = retrieved == null
            ? memo.answer(message, bars, () -> found(finder.find(message, bars)))
            : found(finder.find(message, bars, retrieved)).remembered();
        // the relevance gate's verdicts, by question language: answered from an entry, or the honest no-answer
        meters.counter("sluice.chat.faq.answers", "outcome", answer.answered() ? "entry" : "no-answer",
            "language", answer.language()).increment();
        return answer.answer();
    }

    private static FaqAnswerMemo.Found found(FaqAnswerFinder.Found found) {
        boolean degraded = found.retrieval() != null && found.retrieval().degraded();
        return new FaqAnswerMemo.Found(new FaqAnswerMemo.Remembered(of(found), found.language().code(), found.answered()),
            degraded);
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
