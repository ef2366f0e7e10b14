package io.sluice.api.cache;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.semantics.evaluation.EvaluationReport;
import io.sluice.semantics.evaluation.Evaluator;
import io.sluice.semantics.pairs.LabelledPair;
import io.sluice.semantics.pairs.PairFeatures;
import io.sluice.semantics.pairs.PairFile;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Evaluator kind {@code cache-pairs}: each labelled pair through the exact online path — the first
 * question is the cached one, the second is asked; both must pass {@link TurnEligibility} (an ineligible
 * question is never cached nor looked up), then the {@link L2Matcher} with the verifier answering now
 * decides at each level (L0..L3, each with its knob's cosine threshold). Reports precision and recall of
 * served hits per level (headline: L0), and the wrongly served pairs.
 */
public final class CachePairsEvaluator implements Evaluator {

    public static final String KIND = "cache-pairs";
    private static final List<String> LEVELS = List.of("L0", "L1", "L2", "L3");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final Embedder embedder;
    private final TurnEligibility eligibility;
    private final HitVerifier verifier;
    private final ToDoubleFunction<String> levelCosine;

    /** @param levelCosine the cosine threshold of a level's knobs (the one level → knobs map) */
    public CachePairsEvaluator(Embedder embedder, TurnEligibility eligibility, HitVerifier verifier,
            ToDoubleFunction<String> levelCosine) {
        this.embedder = embedder;
        this.eligibility = eligibility;
        this.verifier = verifier;
        this.levelCosine = levelCosine;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public String expectedFields() {
        return "a, b, same (yes/no); optional intent_a, intent_b";
    }

    /** What one level served, over all pairs. */
    public record LevelScore(String level, int served, int correct, int positives) {
        public double precision() {
            return served == 0 ? 1 : (double) correct / served;
        }

        public double recall() {
            return positives == 0 ? 0 : (double) correct / positives;
        }
    }

    @Override
    public EvaluationReport evaluate(List<Map<String, String>> items) {
        List<LabelledPair> pairs = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            pairs.add(PairFile.pair(items.get(i), i + 1, "evaluation"));
        }
        return evaluatePairs(pairs);
    }

    public EvaluationReport evaluatePairs(List<LabelledPair> pairs) {
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("the file holds no pairs");
        }
        Map<String, float[]> vectors = embed(pairs);
        long positives = pairs.stream().filter(LabelledPair::same).count();
        int ineligible = 0;
        List<Boolean> eligible = new ArrayList<>();
        for (LabelledPair p : pairs) {
            boolean ok = eligibility.refusal(p.a(), List.of()) == null && eligibility.refusal(p.b(), List.of()) == null;
            eligible.add(ok);
            ineligible += ok ? 0 : 1;
        }
        L2Matcher matcher = new L2Matcher(verifier);
        Map<String, Double> metrics = new LinkedHashMap<>();
        List<Map<String, Object>> levels = new ArrayList<>();
        List<Map<String, Object>> wrong = new ArrayList<>();
        for (String level : LEVELS) {
            double cosine = levelCosine.applyAsDouble(level);
            int served = 0;
            int correct = 0;
            for (int i = 0; i < pairs.size(); i++) {
                LabelledPair p = pairs.get(i);
                if (!eligible.get(i)) {
                    continue;
                }
                var outcome = matcher.match(p.b(), vectors.get(p.b()), level, cosine,
                    new PairFeatures.Labels(p.intentB(), p.faqB()),
                    List.of(new L2Matcher.Candidate<>(p.a(), vectors.get(p.a()), p,
                        verifier.pairs().analyzer().analyze(p.a()), new PairFeatures.Labels(p.intentA(), p.faqA()))));
                if (outcome.match().isPresent()) {
                    served++;
                    correct += p.same() ? 1 : 0;
                    if (!p.same() && wrong.size() < 50) {
                        Map<String, Object> w = new LinkedHashMap<>();
                        w.put("level", level);
                        w.put("item", i + 1);
                        w.put("a", p.a());
                        w.put("b", p.b());
                        w.put("cosine", round(outcome.match().get().similarity()));
                        wrong.add(w);
                    }
                }
            }
            LevelScore score = new LevelScore(level, served, correct, (int) positives);
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("level", level);
            l.put("cosineThreshold", cosine);
            l.put("served", served);
            l.put("precision", round(score.precision()));
            l.put("recall", round(score.recall()));
            levels.add(l);
            metrics.put("precision-" + level.toLowerCase(java.util.Locale.ROOT), round(score.precision()));
            metrics.put("recall-" + level.toLowerCase(java.util.Locale.ROOT), round(score.recall()));
        }
        metrics.put("ineligible", (double) ineligible);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("pairs", pairs.size());
        details.put("positives", positives);
        details.put("ineligible", ineligible);
        details.put("verifier", verifier.pairs().model().builtIn() ? "built-in" : "pair-verifier");
        details.put("levels", levels);
        details.put("wrongHits", wrong);
        return new EvaluationReport(KIND, pairs.size(), metrics, JSON.writeValueAsString(details),
            verifier.pairs().version(), Instant.now());
    }

    private Map<String, float[]> embed(List<LabelledPair> pairs) {
        List<String> texts = new ArrayList<>(new LinkedHashSet<>(pairs.stream()
            .flatMap(p -> java.util.stream.Stream.of(p.a(), p.b())).toList()));
        Map<String, float[]> out = new java.util.HashMap<>();
        for (int from = 0; from < texts.size(); from += 64) {
            List<String> batch = texts.subList(from, Math.min(texts.size(), from + 64));
            List<float[]> vectors = embedder.embedAll(batch);
            for (int i = 0; i < batch.size(); i++) {
                out.put(batch.get(i), vectors.get(i));
            }
        }
        return out;
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
