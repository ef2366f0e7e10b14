package io.sluice.api.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Predicate;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.OnnxBgeEmbedder;
import io.sluice.knowledge.embedding.Scripts;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Accuracy on held-out labelled examples, real ONNX embeddings (BGE-small-zh, the knowledge module's
 * {@link Embedder}): the index is built from 80 % of {@code intent-examples.tsv}, the other 20 % are
 * classified by the rules alone, the kNN alone, and the rules then the kNN as the intent step does
 * (kNN asked only while the rules are below 0.7). Correct = same example label (the labels are coarser
 * than the intents, see {@link ExampleLabel}); priority correct = same S/A/B class.
 *
 * <p>The examples come in groups of three (an FAQ phrasing and two paraphrases, one of them usually
 * English), then single extra examples. Two deterministic splits: "rows" holds out every fifth row (a
 * held-out example usually has a sibling paraphrase in the index), "groups" holds out every fifth group
 * whole (no sibling: the harder, more honest measure). The assertions use the group split.
 */
class KnnIntentAccuracyTest {

    static final double CONFIDENT_ABOVE = 0.7;

    static List<IntentExamples.Example> examples;
    static Map<String, float[]> vectors;

    @BeforeAll
    static void embedOnce() throws Exception {
        try (InputStream in = Objects.requireNonNull(
                KnnIntentAccuracyTest.class.getResourceAsStream("/sluice/sample/intent-examples.tsv"))) {
            examples = IntentExamples.read(in, "intent-examples.tsv");
        }
        Embedder bge = new OnnxBgeEmbedder(32, Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "test-embed");
            t.setDaemon(true);
            return t;
        }));
        List<String> texts = examples.stream().map(IntentExamples.Example::text).toList();
        List<float[]> embedded = bge.embedAll(texts);
        vectors = new HashMap<>();
        for (int i = 0; i < texts.size(); i++) {
            vectors.put(texts.get(i), embedded.get(i));
        }
    }

    /** The real vectors, looked up (each text is embedded once for all splits and settings). */
    static final Embedder PRECOMPUTED = new Embedder() {
        @Override
        public int dimension() {
            return 512;
        }

        @Override
        public String modelId() {
            return "precomputed-bge";
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            return texts.stream().map(t -> Objects.requireNonNull(vectors.get(t), t)).toList();
        }
    };

    record Score(int n, int rulesOk, int knnOk, int stepOk, int rulesPriorityOk, int stepPriorityOk, int knnAsked,
            int knnAbstained) {
        String row(String split, String lang) {
            return "| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %d | %d |".formatted(split, lang, n,
                rulesOk / (double) n, knnOk / (double) n, stepOk / (double) n, rulesPriorityOk / (double) n,
                stepPriorityOk / (double) n, knnAsked, knnAbstained);
        }

        double rules() {
            return rulesOk / (double) n;
        }

        double step() {
            return stepOk / (double) n;
        }

        double stepPriority() {
            return stepPriorityOk / (double) n;
        }

        double rulesPriority() {
            return rulesPriorityOk / (double) n;
        }
    }

    static Score evaluate(List<IntentExamples.Example> train, List<IntentExamples.Example> test, KnnVote vote,
            Predicate<IntentExamples.Example> which, List<String> misses) {
        RuleIntentClassifier rules = new RuleIntentClassifier();
        KnnIntentClassifier knn = KnnIntentClassifier.build(PRECOMPUTED, train, vote);
        int n = 0;
        int rulesOk = 0;
        int knnOk = 0;
        int stepOk = 0;
        int rulesPriorityOk = 0;
        int stepPriorityOk = 0;
        int asked = 0;
        int abstained = 0;
        for (IntentExamples.Example example : test) {
            if (!which.test(example)) {
                continue;
            }
            n++;
            IntentResult byRules = rules.classify(example.text());
            IntentResult byStep = byRules;
            if (byRules.confidence() < CONFIDENT_ABOVE) {
                asked++;
                var refined = knn.refine(example.text(), byRules);
                abstained += knn.decide(example.text()).isEmpty() ? 1 : 0;
                byStep = refined.orElse(byRules);
            }
            ExampleLabel knnAlone = knn.decide(example.text()).map(KnnVote.Decision::label).orElse(ExampleLabel.OTHER);
            rulesOk += ExampleLabel.of(byRules.intent()) == example.label() ? 1 : 0;
            knnOk += knnAlone == example.label() ? 1 : 0;
            boolean ok = ExampleLabel.of(byStep.intent()) == example.label();
            stepOk += ok ? 1 : 0;
            rulesPriorityOk += byRules.priority() == example.label().standsFor().priority() ? 1 : 0;
            stepPriorityOk += byStep.priority() == example.label().standsFor().priority() ? 1 : 0;
            if (!ok && misses != null) {
                misses.add("  miss: %s [%s] -> %s (%s %.2f) %s".formatted(example.text(), example.label().code(),
                    byStep.intent().code(), byStep.source(), byStep.confidence(), byStep.evidence()));
            }
        }
        return new Score(n, rulesOk, knnOk, stepOk, rulesPriorityOk, stepPriorityOk, asked, abstained);
    }

    /** Every fifth unit (row or group of three rows) is held out. */
    static List<List<IntentExamples.Example>> split(Function<Integer, Integer> unitOfRow) {
        List<IntentExamples.Example> train = new ArrayList<>();
        List<IntentExamples.Example> test = new ArrayList<>();
        for (int i = 0; i < examples.size(); i++) {
            (unitOfRow.apply(i) % 5 == 2 ? test : train).add(examples.get(i));
        }
        return List.of(train, test);
    }

    static final Predicate<IntentExamples.Example> ALL = e -> true;
    static final Predicate<IntentExamples.Example> ENGLISH = e -> Scripts.latin(e.text());
    static final Predicate<IntentExamples.Example> CHINESE = ENGLISH.negate();

    @Test
    void theKnnOnTopOfTheRulesClassifiesHeldOutExamplesBetterThanTheRulesAlone() {
        assertThat(examples).hasSizeGreaterThanOrEqualTo(500);
        KnnVote vote = new KnnVote(5, 0.5);   // the defaults in application.yml
        StringBuilder table = new StringBuilder("""

            intent accuracy on held-out examples (k=5, min-similarity 0.5, enhancers asked below 0.7)
            | split | lang | n | rules | kNN alone | rules + kNN | priority: rules | priority: rules + kNN | kNN asked | kNN abstained |
            |---|---|---|---|---|---|---|---|---|---|
            """);
        List<List<IntentExamples.Example>> rows = split(i -> i);
        List<List<IntentExamples.Example>> groups = split(i -> i / 3);
        Map<String, Score> byGroup = new HashMap<>();
        for (var lang : List.of(Map.entry("all", ALL), Map.entry("zh", CHINESE), Map.entry("en", ENGLISH))) {
            table.append(evaluate(rows.get(0), rows.get(1), vote, lang.getValue(), null).row("rows", lang.getKey()))
                .append('\n');
        }
        List<String> misses = new ArrayList<>();
        for (var lang : List.of(Map.entry("all", ALL), Map.entry("zh", CHINESE), Map.entry("en", ENGLISH))) {
            Score score = evaluate(groups.get(0), groups.get(1), vote, lang.getValue(), "all".equals(lang.getKey()) ? misses : null);
            byGroup.put(lang.getKey(), score);
            table.append(score.row("groups", lang.getKey())).append('\n');
        }
        table.append("settings on the group split (all languages): k / min-similarity -> rules + kNN accuracy\n");
        for (int k : new int[] {1, 3, 5, 7, 9}) {
            for (double min : new double[] {0.4, 0.5, 0.6, 0.7}) {
                Score s = evaluate(groups.get(0), groups.get(1), new KnnVote(k, min), ALL, null);
                table.append("  k=%d min=%.1f -> %.3f (priority %.3f, abstained %d)%n".formatted(k, min, s.step(),
                    s.stepPriority(), s.knnAbstained()));
            }
        }
        misses.forEach(m -> table.append(m).append('\n'));
        System.out.println(table);

        Score all = byGroup.get("all");
        Score zh = byGroup.get("zh");
        Score en = byGroup.get("en");
        assertThat(all.n()).isGreaterThanOrEqualTo(90);
        // floors just under the measurement (2026-11-30: all 0.40 -> 0.60, zh 0.38 -> 0.63, en 0.44 -> 0.53)
        assertThat(all.step()).isGreaterThanOrEqualTo(0.58).isGreaterThanOrEqualTo(all.rules() + 0.15);
        assertThat(zh.step()).isGreaterThanOrEqualTo(0.61).isGreaterThan(zh.rules());
        assertThat(en.step()).isGreaterThanOrEqualTo(0.50).isGreaterThan(en.rules());
        assertThat(all.stepPriority()).isGreaterThanOrEqualTo(0.65).isGreaterThan(all.rulesPriority());
    }
}
