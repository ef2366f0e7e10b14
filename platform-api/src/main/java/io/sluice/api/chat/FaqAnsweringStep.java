package io.sluice.api.chat;

import java.util.List;

import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.faq.FaqIndex;

import org.springframework.stereotype.Component;

/** F1: the best FAQ answer by BM25, no LLM involved; says plainly that it is automatic. */
@Component
public class FaqAnsweringStep implements AnsweringStep {

    static final String NO_MATCH = "抱歉，暂时没有找到与您问题相符的答案，请换个说法或联系人工客服。"
        + " (Sorry, no matching answer was found; please rephrase or contact a human agent.)";

    private final FaqIndex faq;

    public FaqAnsweringStep(FaqIndex faq) {
        this.faq = faq;
    }

    @Override
    public Answer answer(String message) {
        return faq.best(message)
            .map(match -> new Answer(match.entry().answer(), FidelityTier.F1,
                List.of(new ChatResponse.Source("faq", Long.toString(match.entry().id()), match.entry().question(),
                    match.score()))))
            .orElseGet(() -> new Answer(NO_MATCH, FidelityTier.F1, List.of()));
    }
}
