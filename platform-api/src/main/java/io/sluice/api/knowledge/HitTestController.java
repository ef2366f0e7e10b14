package io.sluice.api.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.api.chat.AnswerPreview;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.knowledge.answer.FaqAnswerFinder;
import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.hittest.HitTestService;
import io.sluice.problem.ProblemTypes;
import io.sluice.semantics.relevance.RelevanceModel;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Hit testing as JSON ({@code POST /api/v1/knowledge/hit-test}, scope {@code knowledge:read}): every
 * tier's ranked hits searched on its own with the relevance bars in service, what the chain does, the
 * FAQ entry F1 answers with (the same finder the chat runs) and what the chat answers at each level.
 */
@RestController
public class HitTestController {

    public record HitTestRequest(String query, String level) {
    }

    private final HitTestService hitTest;
    private final FaqAnswerFinder finder;
    private final RelevanceModel relevance;
    private final RetrievalPlan plan;
    private final DegradationControl degradation;
    private final AnswerPreview preview;

    public HitTestController(HitTestService hitTest, FaqAnswerFinder finder, RelevanceModel relevance,
            RetrievalPlan defaultRetrievalPlan, DegradationControl degradation, AnswerPreview preview) {
        this.hitTest = hitTest;
        this.finder = finder;
        this.relevance = relevance;
        this.plan = defaultRetrievalPlan;
        this.degradation = degradation;
        this.preview = preview;
    }

    @PostMapping("/api/v1/knowledge/hit-test")
    Map<String, Object> test(@RequestBody HitTestRequest body) {
        if (body == null || body.query() == null || body.query().isBlank()) {
            throw new IllegalArgumentException("query is required");
        }
        if (body.query().length() > 2000) {
            throw new IllegalArgumentException("query is longer than 2000 characters");
        }
        DegradationLevel level;
        try {
            level = body.level() == null || body.level().isBlank() ? degradation.level()
                : DegradationLevel.valueOf(body.level().strip().toUpperCase());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("level is one of L0, L1, L2, L3");
        }
        String query = body.query().strip();
        RetrievalPlan bars = relevance.apply(plan.withTopK(degradation.knobs(level).topK()));
        HitTestService.Report report = hitTest.test(query, bars);
        FaqAnswerFinder.Found found = finder.find(query, bars);

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("query", query);
        out.put("level", level);
        out.put("language", found.language().code());
        out.put("relevance", Map.of("thresholds", relevance.thresholds(), "version", relevance.version()));
        List<Map<String, Object>> tiers = new ArrayList<>();
        for (HitTestService.TierReport t : report.tiers()) {
            Map<String, Object> tier = new LinkedHashMap<>();
            tier.put("tier", t.tier());
            tier.put("millis", t.millis());
            if (t.error() != null) {
                tier.put("error", t.error());
            }
            List<Map<String, Object>> hits = new ArrayList<>();
            int rank = 1;
            for (Passage p : t.passages()) {
                Map<String, Object> hit = new LinkedHashMap<>();
                hit.put("rank", rank++);
                hit.put("score", p.score());
                hit.put("relevant", p.score() >= bars.minScore(kind(t.tier()), p));
                hit.put("faqKey", p.source().faqKey());
                hit.put("documentId", p.source().documentId());
                hit.put("title", p.source().title());
                hit.put("text", p.text().length() > 300 ? p.text().substring(0, 300) + "…" : p.text());
                hits.add(hit);
            }
            tier.put("hits", hits);
            tiers.add(tier);
        }
        out.put("tiers", tiers);
        out.put("chain", Map.of("answeredBy", String.valueOf(report.chain().answeredBy()), "path", report.chain().path()));
        Map<String, Object> faq = new LinkedHashMap<>();
        faq.put("answered", found.answered());
        faq.put("key", found.answered() ? found.best().key() : null);
        faq.put("via", found.answered() ? found.best().via() : null);
        faq.put("ranked", found.ranked().stream().map(c -> Map.of("key", c.key(), "score", c.score(), "via", c.via()))
            .toList());
        out.put("faq", faq);
        out.put("perLevel", preview.perLevel(query));
        return out;
    }

    private static io.sluice.knowledge.chain.TierKind kind(String tier) {
        if (tier.startsWith("vector")) {
            return io.sluice.knowledge.chain.TierKind.VECTOR;
        }
        return "bm25".equals(tier) ? io.sluice.knowledge.chain.TierKind.LEXICAL : io.sluice.knowledge.chain.TierKind.FAQ;
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> invalid(IllegalArgumentException e) {
        return FaqOperationsController.problem(HttpStatus.BAD_REQUEST, ProblemTypes.INVALID_REQUEST, "Invalid hit test",
            e.getMessage());
    }
}
