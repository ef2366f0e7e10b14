package io.sluice.console.knowledge;

import java.util.List;
import java.util.Optional;

import io.sluice.api.chat.AnswerPreview;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.knowledge.answer.FaqAnswerFinder;
import io.sluice.knowledge.answer.RelevanceThresholds;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.hittest.HitTestService;
import io.sluice.semantics.evaluation.EvaluationReport;
import io.sluice.semantics.evaluation.EvaluationStore;
import io.sluice.semantics.relevance.FaqQueryEvaluator;
import io.sluice.semantics.relevance.RelevanceModel;

import org.springframework.stereotype.Service;

/**
 * Hit testing for the console: the same parts the chat and the hit-test API use — every tier with the
 * relevance bars in service, the F1 finder, and {@link AnswerPreview} for what the chat answers at each
 * level — plus the latest {@code faq-queries} evaluation.
 */
@Service
public class HitTestConsole {

    public record HitTest(HitTestService.Report report, DegradationLevel level, RetrievalPlan plan,
            FaqAnswerFinder.Found faq, List<AnswerPreview.LevelAnswer> perLevel, RelevanceThresholds thresholds,
            long relevanceVersion) {
    }

    private final HitTestService hitTest;
    private final FaqAnswerFinder finder;
    private final RelevanceModel relevance;
    private final RetrievalPlan plan;
    private final DegradationControl degradation;
    private final AnswerPreview preview;
    private final EvaluationStore evaluations;

    public HitTestConsole(HitTestService hitTest, FaqAnswerFinder finder, RelevanceModel relevance,
            RetrievalPlan defaultRetrievalPlan, DegradationControl degradation, AnswerPreview preview,
            EvaluationStore evaluations) {
        this.hitTest = hitTest;
        this.finder = finder;
        this.relevance = relevance;
        this.plan = defaultRetrievalPlan;
        this.degradation = degradation;
        this.preview = preview;
        this.evaluations = evaluations;
    }

    /** Runs the online path for the query at the given level (default: the level in force). */
    public HitTest test(String query, String levelName) {
        DegradationLevel level = levelName == null || levelName.isBlank() ? degradation.level()
            : DegradationLevel.valueOf(levelName);
        RetrievalPlan bars = relevance.apply(plan.withTopK(degradation.knobs(level).topK()));
        return new HitTest(hitTest.test(query, bars), level, bars, finder.find(query, bars), preview.perLevel(query),
            relevance.thresholds(), relevance.version());
    }

    /** The latest evaluation of labelled FAQ queries, if any ran. */
    public Optional<EvaluationReport> latestEvaluation() {
        try {
            return evaluations.latest(FaqQueryEvaluator.KIND);
        } catch (RuntimeException e) {
            return Optional.empty(); // the database is down: the page still tests
        }
    }
}
