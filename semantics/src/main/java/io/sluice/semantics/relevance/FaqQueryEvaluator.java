package io.sluice.semantics.relevance;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.knowledge.answer.FaqAnswerFinder;
import io.sluice.knowledge.answer.RelevanceThresholds;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.semantics.evaluation.EvaluationReport;
import io.sluice.semantics.evaluation.Evaluator;

import tools.jackson.databind.ObjectMapper;

/**
 * Evaluation kind {@code faq-queries}: each labelled question goes through {@link FaqAnswerFinder} with
 * the relevance bars in service — the F1 path the chat runs — and the report gives hit@1 (the entry the
 * chat answers with is the labelled one), hit@5 (it is among the ranked candidates), the share of
 * out-of-domain questions that get the honest no-answer (no entry and no document passage: no tier has
 * anything to answer from), in-domain questions wrongly refused, and which tier found the answer.
 */
public class FaqQueryEvaluator implements Evaluator {

    public static final String KIND = "faq-queries";

    /** Figures of one measurement. */
    public record Measurement(int inDomain, int outOfDomain, double hitAt1, double hitAt5, double outOfDomainNoAnswer,
            double inDomainNoAnswer, Map<String, Integer> answeredVia, List<Map<String, String>> misses) {

        /** One number to compare two threshold sets on the same split: in-domain hits and honest refusals. */
        public double balanced() {
            double a = inDomain == 0 ? 1 : hitAt1;
            double b = outOfDomain == 0 ? 1 : outOfDomainNoAnswer;
            return (a + b) / 2;
        }

        public Map<String, Double> metrics() {
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("hit@1", hitAt1);
            m.put("hit@5", hitAt5);
            m.put("out-of-domain-no-answer", outOfDomainNoAnswer);
            m.put("in-domain-no-answer", inDomainNoAnswer);
            m.put("in-domain", (double) inDomain);
            m.put("out-of-domain", (double) outOfDomain);
            return m;
        }
    }

    private final FaqAnswerFinder finder;
    private final RelevanceModel relevance;
    private final RetrievalPlan plan;
    private final ObjectMapper json;

    public FaqQueryEvaluator(FaqAnswerFinder finder, RelevanceModel relevance, RetrievalPlan plan, ObjectMapper json) {
        this.finder = finder;
        this.relevance = relevance;
        this.plan = plan;
        this.json = json;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public String expectedFields() {
        return "query, key (the FAQ entry key that answers it; empty for an out-of-domain question)";
    }

    @Override
    public EvaluationReport evaluate(List<Map<String, String>> items) {
        List<LabelledQuery> queries = LabelledQuery.of(items);
        Measurement m = measure(queries, relevance.thresholds());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("thresholds", relevance.thresholds());
        details.put("answeredVia", m.answeredVia());
        details.put("misses", m.misses().size() > 50 ? m.misses().subList(0, 50) : m.misses());
        return new EvaluationReport(KIND, queries.size(), m.metrics(), json.writeValueAsString(details),
            relevance.version(), Instant.now());
    }

    /** Measures the F1 path with the given bars (the calibration compares candidates this way). */
    public Measurement measure(List<LabelledQuery> queries, RelevanceThresholds thresholds) {
        RetrievalPlan bars = thresholds.apply(plan.withTopK(Math.max(plan.topK(), FaqAnswerFinder.CANDIDATES)));
        // the ranking as every question gets it once warm (answer vectors are computed in the background)
        finder.awaitAnswerVectors(java.time.Duration.ofMinutes(5));
        int in = 0;
        int out = 0;
        int hit1 = 0;
        int hit5 = 0;
        int refusedOut = 0;
        int refusedIn = 0;
        Map<String, Integer> via = new LinkedHashMap<>();
        List<Map<String, String>> misses = new ArrayList<>();
        for (int i = 0; i < queries.size(); i++) {
            LabelledQuery q = queries.get(i);
            FaqAnswerFinder.Found found = finder.find(q.query(), bars);
            boolean noAnswer = !found.answered() && !found.retrieval().found();
            if (!q.inDomain()) {
                out++;
                if (noAnswer) {
                    refusedOut++;
                } else {
                    misses.add(Map.of("item", Integer.toString(i + 1), "expected", "(no answer)", "got",
                        found.answered() ? found.best().key() : "document passages"));
                }
                continue;
            }
            in++;
            if (!found.answered()) {
                refusedIn++;
            } else {
                via.merge(found.best().via(), 1, Integer::sum);
            }
            if (found.answered() && found.best().key().equals(q.key())) {
                hit1++;
            } else {
                misses.add(Map.of("item", Integer.toString(i + 1), "expected", q.key(), "got",
                    found.answered() ? found.best().key() : "(no answer)"));
            }
            if (found.ranked().stream().anyMatch(c -> c.key().equals(q.key()))) {
                hit5++;
            }
        }
        return new Measurement(in, out, ratio(hit1, in), ratio(hit5, in), ratio(refusedOut, out), ratio(refusedIn, in),
            via, misses);
    }

    private static double ratio(int n, int d) {
        return d == 0 ? 0 : (double) n / d;
    }
}
