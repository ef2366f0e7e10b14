package io.sluice.api.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationProperties;

import org.junit.jupiter.api.Test;

/**
 * The labelled pair sets: for each pair the first question is cached, the second is asked; the L2
 * decision is {@link L2Matcher} (cosine ≥ the level's threshold, then {@link HitVerifier}) with the real
 * ONNX embeddings. Prints precision of served hits, recall and what cosine alone would have served, per
 * level. {@code cache-pairs.tsv} is the set the threshold and verifier were tuned on;
 * {@code cache-pairs-heldout.tsv} was written afterwards and never used for tuning, so its figures are
 * the honest estimate for unseen traffic.
 */
class CachePairEvaluationTest {

    record Pair(boolean same, String kind, String lang, String cached, String asked) {
    }

    record Score(int served, int correct, int positives) {
        double precision() {
            return served == 0 ? 1.0 : (double) correct / served;
        }

        double recall() {
            return positives == 0 ? 0 : (double) correct / positives;
        }
    }

    static final String TUNING = "cache-pairs.tsv";
    static final String HELD_OUT = "cache-pairs-heldout.tsv";

    static List<Pair> pairs(String file) throws Exception {
        var in = Objects.requireNonNull(CachePairEvaluationTest.class.getResourceAsStream("/sluice/sample/" + file), file);
        List<Pair> out = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("#") || line.startsWith("label\t") || line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t");
                out.add(new Pair("same".equals(f[0]), f[1], f[2], f[3], f[4]));
            }
        }
        return out;
    }

    @Test
    void onTheTuningSetVerifiedHitsAreAtLeast95PercentPreciseAtTheDefaultL0Threshold() throws Exception {
        List<Pair> pairs = pairs(TUNING);
        assertThat(pairs).hasSizeGreaterThanOrEqualTo(300);
        assertAtLeastAThirdOfNegativesHard(pairs);

        Score l0 = evaluate(TUNING, pairs);

        assertThat(l0.served()).isPositive();
        assertThat(l0.precision()).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void onTheHeldOutSetVerifiedHitsAreAtLeast95PercentPreciseAtTheDefaultL0Threshold() throws Exception {
        List<Pair> pairs = pairs(HELD_OUT);
        assertThat(pairs).hasSizeGreaterThanOrEqualTo(200);
        assertThat(pairs).extracting(Pair::lang).contains("zh", "en");
        assertAtLeastAThirdOfNegativesHard(pairs);

        Score l0 = evaluate(HELD_OUT, pairs);

        assertThat(l0.served()).isPositive();
        assertThat(l0.precision()).isGreaterThanOrEqualTo(0.95);
    }

    static void assertAtLeastAThirdOfNegativesHard(List<Pair> pairs) {
        long negatives = pairs.stream().filter(p -> !p.same()).count();
        long hard = pairs.stream().filter(p -> !p.same() && !"unrelated".equals(p.kind())).count();
        assertThat(negatives).isPositive();
        assertThat(hard * 3).isGreaterThanOrEqualTo(negatives);
    }

    /** Prints the per-level table (and the L0 mistakes) for one pair set; returns the L0 score. */
    static Score evaluate(String file, List<Pair> pairs) throws Exception {
        long negatives = pairs.stream().filter(p -> !p.same()).count();
        long hard = pairs.stream().filter(p -> !p.same() && !"unrelated".equals(p.kind())).count();

        List<String> texts = new ArrayList<>(new LinkedHashSet<>(pairs.stream()
            .flatMap(p -> java.util.stream.Stream.of(p.cached(), p.asked())).toList()));
        List<float[]> vectors = RedisSemanticCacheTest.EMBEDDER.embedAll(texts);
        Map<String, float[]> vector = new java.util.HashMap<>();
        for (int i = 0; i < texts.size(); i++) {
            vector.put(texts.get(i), vectors.get(i));
        }
        L2Matcher matcher = new L2Matcher(new HitVerifier());
        Map<DegradationLevel, Double> thresholds = DegradationProperties.defaults().levels().entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().cacheThreshold()));

        StringBuilder table = new StringBuilder("\n" + file + "\n| level | threshold | served (verified) | precision | recall"
            + " | served (cosine alone) | precision cosine alone | recall cosine alone |\n|---|---|---|---|---|---|---|---|\n");
        Score l0 = null;
        for (DegradationLevel level : DegradationLevel.values()) {
            double threshold = thresholds.get(level);
            Function<Pair, Boolean> verified = p -> matcher.match(p.asked(), vector.get(p.asked()), level.name(), threshold,
                null, List.of(new L2Matcher.Candidate<>(p.cached(), vector.get(p.cached()), p))).match().isPresent();
            Function<Pair, Boolean> cosine = p -> L2Matcher.dot(vector.get(p.asked()), vector.get(p.cached())) >= threshold;
            Score v = score(pairs, verified);
            Score c = score(pairs, cosine);
            table.append("| %s | %.2f | %d | %.3f | %.3f | %d | %.3f | %.3f |%n".formatted(level, threshold, v.served(),
                v.precision(), v.recall(), c.served(), c.precision(), c.recall()));
            if (level == DegradationLevel.L0) {
                l0 = v;
            }
            for (Pair p : pairs) {
                double cos = L2Matcher.dot(vector.get(p.asked()), vector.get(p.cached()));
                boolean served = verified.apply(p);
                // every wrong hit; misses above the threshold only at L0
                if (served != p.same() && (served || level == DegradationLevel.L0 && cos >= threshold)) {
                    table.append("  %s %s %s cos=%.3f verdict=%s  %s | %s%n".formatted(level, served ? "WRONG-HIT" : "MISS",
                        p.kind(), cos, new HitVerifier().verify(p.cached(), p.asked()), p.cached(), p.asked()));
                }
            }
        }
        table.append("pairs: %d (%d same, %d different, %d hard negatives)%n".formatted(pairs.size(),
            pairs.size() - negatives, negatives, hard));
        System.out.println(table);
        return l0;
    }

    static Score score(List<Pair> pairs, Function<Pair, Boolean> serve) {
        int served = 0;
        int correct = 0;
        int positives = 0;
        for (Pair p : pairs) {
            positives += p.same() ? 1 : 0;
            if (serve.apply(p)) {
                served++;
                correct += p.same() ? 1 : 0;
            }
        }
        return new Score(served, correct, positives);
    }
}
