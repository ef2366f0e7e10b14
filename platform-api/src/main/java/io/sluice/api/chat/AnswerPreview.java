package io.sluice.api.chat;

import java.util.ArrayList;
import java.util.List;

import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.LevelKnobs;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.answer.NoAnswer;
import io.sluice.knowledge.chain.RetrievalResult;

import org.springframework.stereotype.Component;

/**
 * What the chat answers for a question at each degradation level, derived from the code the chat runs:
 * the same retriever (relevance bars in service, the level's top-k), the same F1 step and
 * {@link TieredAnswerStep#plannedTier}; no LLM is called. Hit testing (API and console) shows this.
 */
@Component
public class AnswerPreview {

    /** One level: the tier the chat answers at (when no LLM call fails), from what, and the sources it names. */
    public record LevelAnswer(DegradationLevel level, FidelityTier highestTier, FidelityTier chatTier, int topK,
            String how, boolean noAnswer, List<ChatResponse.Source> sources) {
    }

    private final PassageRetriever retriever;
    private final AnsweringStep faq;
    private final LlmAccess llm;
    private final DegradationControl degradation;

    public AnswerPreview(PassageRetriever retriever, AnsweringStep faq, LlmAccess llm, DegradationControl degradation) {
        this.retriever = retriever;
        this.faq = faq;
        this.llm = llm;
        this.degradation = degradation;
    }

    public List<LevelAnswer> perLevel(String question) {
        boolean llmUsable = llm.usable().isPresent();
        List<LevelAnswer> out = new ArrayList<>();
        for (DegradationLevel level : DegradationLevel.values()) {
            LevelKnobs knobs = degradation.knobs(level);
            RetrievalResult retrieved = retriever.retrieve(question, knobs.topK());
            Answer faqAnswer = faq.answer(question, retrieved);
            FidelityTier tier = TieredAnswerStep.plannedTier(knobs.highestTier(), llmUsable, retrieved, faqAnswer);
            boolean none = tier == FidelityTier.F1 && faqAnswer.sources().isEmpty();
            List<ChatResponse.Source> sources = switch (tier) {
                case F4, F3 -> TieredAnswerStep.sources(TieredAnswerStep.documents(retrieved)
                    .subList(0, Math.min(knobs.topK(), TieredAnswerStep.documents(retrieved).size())));
                default -> faqAnswer.sources();
            };
            out.add(new LevelAnswer(level, knobs.highestTier(), tier, knobs.topK(), how(tier, knobs, retrieved, none),
                none, sources));
        }
        return out;
    }

    private static String how(FidelityTier tier, LevelKnobs knobs, RetrievalResult retrieved, boolean none) {
        return switch (tier) {
            case F4 -> "vector passages (" + retrieved.answeredBy() + "), full prompt, " + knobs.modelRoute()
                + " model, max " + knobs.maxTokens() + " tokens";
            case F3 -> "passages from " + retrieved.answeredBy() + ", lean prompt";
            case F2 -> "FAQ answer polished by the light model";
            case F1 -> none ? "nothing relevant: the honest no-answer (" + NoAnswer.text(
                io.sluice.knowledge.answer.AnswerLanguage.ENGLISH).substring(0, 34) + "…)" : "FAQ answer as is, no LLM";
            case F0 -> "deferred";
        };
    }
}
