package io.sluice.api.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.sluice.api.intent.IntentExamples.Example;
import io.sluice.api.intent.KnnVote.Neighbour;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.Vectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The vote and the classifier's use of it, with a fake embedder whose similarities the test chooses. */
class KnnIntentClassifierTest {

    static Neighbour n(ExampleLabel label, double similarity) {
        return new Neighbour(label, similarity, label.code() + "@" + similarity);
    }

    @Test
    void similarityWeighsTheVoteSoOneCloseExampleBeatsTwoDistantOnes() {
        KnnVote vote = new KnnVote(3, 0.3);

        KnnVote.Decision close = vote.decide(List.of(n(ExampleLabel.OTHER, 0.4), n(ExampleLabel.RETURNS, 0.9),
            n(ExampleLabel.OTHER, 0.4))).orElseThrow();
        KnnVote.Decision majority = vote.decide(List.of(n(ExampleLabel.OTHER, 0.6), n(ExampleLabel.RETURNS, 0.9),
            n(ExampleLabel.OTHER, 0.6))).orElseThrow();

        assertThat(close.label()).isEqualTo(ExampleLabel.RETURNS);
        assertThat(close.confidence()).isCloseTo(0.9 / 1.7, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(majority.label()).isEqualTo(ExampleLabel.OTHER);
        assertThat(majority.confidence()).isCloseTo(1.2 / 2.1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(majority.voters()).extracting(Neighbour::similarity).containsExactly(0.9, 0.6, 0.6);
    }

    @Test
    void onlyTheKNearestVote() {
        KnnVote vote = new KnnVote(2, 0.3);

        KnnVote.Decision decision = vote.decide(List.of(n(ExampleLabel.COUPON, 0.5), n(ExampleLabel.ACCOUNT, 0.8),
            n(ExampleLabel.COUPON, 0.49), n(ExampleLabel.ACCOUNT, 0.79), n(ExampleLabel.COUPON, 0.48))).orElseThrow();

        assertThat(decision.label()).isEqualTo(ExampleLabel.ACCOUNT);
        assertThat(decision.confidence()).isEqualTo(1.0);
        assertThat(decision.voters()).hasSize(2);
    }

    @Test
    void itAbstainsWhenEvenTheNearestExampleIsNotSimilarEnough() {
        KnnVote vote = new KnnVote(3, 0.6);

        assertThat(vote.decide(List.of(n(ExampleLabel.SHIPPING, 0.59), n(ExampleLabel.SHIPPING, 0.5)))).isEmpty();
        assertThat(vote.decide(List.of())).isEmpty();
        assertThat(vote.decide(List.of(n(ExampleLabel.SHIPPING, 0.6), n(ExampleLabel.OTHER, 0.1)))).isPresent();
    }

    @Test
    void aTieGoesToTheMoreUrgentClass() {
        KnnVote vote = new KnnVote(2, 0.3);

        KnnVote.Decision decision = vote.decide(List.of(n(ExampleLabel.OTHER, 0.7), n(ExampleLabel.COMPLAINT, 0.7)))
            .orElseThrow();

        assertThat(decision.label()).isEqualTo(ExampleLabel.COMPLAINT);
        assertThat(decision.confidence()).isEqualTo(0.5);
    }

    @Test
    void badSettingsAreRefused() {
        assertThatThrownBy(() -> new KnnVote(0, 0.5)).hasMessageContaining("k must be");
        assertThatThrownBy(() -> new KnnVote(3, 1.5)).hasMessageContaining("minSimilarity");
    }

    /** Texts map to chosen vectors: similarity = cosine of the angles the test picked. */
    static class FakeEmbedder implements Embedder {
        final Map<String, float[]> vectors;

        FakeEmbedder(Map<String, float[]> vectors) {
            this.vectors = vectors;
        }

        @Override
        public int dimension() {
            return 3;
        }

        @Override
        public String modelId() {
            return "fake";
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            return texts.stream().map(t -> Vectors.normalize(vectors.getOrDefault(t, new float[] {0, 0, 1}).clone())).toList();
        }
    }

    static final List<Example> EXAMPLES = List.of(
        new Example("refund-1", ExampleLabel.RETURNS), new Example("refund-2", ExampleLabel.RETURNS),
        new Example("parcel-1", ExampleLabel.SHIPPING), new Example("parcel-2", ExampleLabel.SHIPPING));

    static final FakeEmbedder EMBEDDER = new FakeEmbedder(Map.of(
        "refund-1", new float[] {1, 0, 0}, "refund-2", new float[] {1, 0.1f, 0},
        "parcel-1", new float[] {0, 1, 0}, "parcel-2", new float[] {0.1f, 1, 0},
        "where is my refund", new float[] {1, 0.05f, 0},          // near the refunds
        "something in between", new float[] {1, 0.8f, 0}));      // between the two groups

    static IntentResult rules(Intent intent, double confidence) {
        return new IntentResult(intent, confidence, "rules", List.of());
    }

    @Test
    void agreementKeepsTheRulesFinerIntentAndRaisesTheConfidence() {
        KnnIntentClassifier knn = KnnIntentClassifier.build(EMBEDDER, EXAMPLES, new KnnVote(2, 0.5));

        IntentResult result = knn.refine("where is my refund", rules(Intent.REFUND, 0.5)).orElseThrow();

        assertThat(result.intent()).isEqualTo(Intent.REFUND);          // "returns" covers refund: the finer one stays
        assertThat(result.source()).isEqualTo("knn");
        assertThat(result.confidence()).isCloseTo(1 - 0.5 * 0.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(result.evidence()).singleElement().asString().startsWith("≈ refund-");
    }

    @Test
    void disagreementWinsOnlyWhenTheVoteIsAtLeastAsSure() {
        KnnIntentClassifier knn = KnnIntentClassifier.build(EMBEDDER, EXAMPLES, new KnnVote(4, 0.5));

        Optional<IntentResult> overRulesGeneral = knn.refine("where is my refund", rules(Intent.GENERAL, 0.3));
        Optional<IntentResult> againstSureRules = knn.refine("something in between", rules(Intent.ACCOUNT, 0.65));

        assertThat(overRulesGeneral).get().extracting(IntentResult::intent).isEqualTo(Intent.RETURNS);
        assertThat(overRulesGeneral.get().priority()).isEqualTo(Priority.B);
        // between the groups the vote is split (~0.55): less sure than the rules, so no opinion
        assertThat(knn.decide("something in between")).get().extracting(KnnVote.Decision::confidence)
            .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.DOUBLE).isLessThan(0.65);
        assertThat(againstSureRules).isEmpty();
    }

    @Test
    void aMessageUnlikeEveryExampleGetsNoOpinion() {
        KnnIntentClassifier knn = KnnIntentClassifier.build(EMBEDDER, EXAMPLES, new KnnVote(2, 0.5));

        assertThat(knn.refine("tell me a joke", rules(Intent.GENERAL, 0.3))).isEmpty();   // orthogonal: similarity 0
        assertThat(knn.refine(" ", rules(Intent.GENERAL, 0.3))).isEmpty();
    }

    @Test
    void withoutExamplesItAlwaysAbstains() {
        KnnIntentClassifier knn = KnnIntentClassifier.build(EMBEDDER, List.of(), new KnnVote(2, 0.5));

        assertThat(knn.size()).isZero();
        assertThat(knn.refine("where is my refund", rules(Intent.GENERAL, 0.3))).isEmpty();
    }

    @Test
    void anEmbedderFailingOnTheMessageMeansNoOpinionNotAFailedRequest() {
        Embedder flaky = new Embedder() {
            @Override
            public int dimension() {
                return 3;
            }

            @Override
            public String modelId() {
                return "flaky";
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                if (texts.size() == 1) {
                    throw new IllegalStateException("embedding service down");
                }
                return EMBEDDER.embedAll(texts);
            }
        };
        KnnIntentClassifier knn = KnnIntentClassifier.build(flaky, EXAMPLES, new KnnVote(2, 0.5));

        assertThat(knn.size()).isEqualTo(4);
        assertThat(knn.refine("where is my refund", rules(Intent.GENERAL, 0.3))).isEmpty();
    }

    @Test
    void theExamplesVectorsAreKeptOnDiskAndAnotherModelOrChangedExamplesEmbedAgain(@TempDir java.nio.file.Path dir)
            throws Exception {
        java.util.concurrent.atomic.AtomicInteger batches = new java.util.concurrent.atomic.AtomicInteger();
        class Counting extends FakeEmbedder {
            final String model;

            Counting(String model) {
                super(EMBEDDER.vectors);
                this.model = model;
            }

            @Override
            public String modelId() {
                return model;
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                if (texts.size() > 1) {
                    batches.incrementAndGet();
                }
                return super.embedAll(texts);
            }
        }
        KnnVote vote = new KnnVote(2, 0.5);

        KnnIntentClassifier first = KnnIntentClassifier.build(new Counting("m1"), EXAMPLES, vote, dir);
        KnnIntentClassifier second = KnnIntentClassifier.build(new Counting("m1"), EXAMPLES, vote, dir);

        assertThat(batches).hasValue(1);                         // the second start read the kept vectors
        assertThat(second.size()).isEqualTo(4);
        assertThat(second.refine("where is my refund", rules(Intent.GENERAL, 0.3)))
            .isEqualTo(first.refine("where is my refund", rules(Intent.GENERAL, 0.3))).isPresent();

        KnnIntentClassifier.build(new Counting("m2"), EXAMPLES, vote, dir);
        KnnIntentClassifier.build(new Counting("m1"), EXAMPLES.subList(0, 3), vote, dir);
        assertThat(batches).hasValue(3);                         // another model, other examples: embedded again

        try (var files = java.nio.file.Files.list(dir)) {          // a damaged file is ignored and rewritten
            for (java.nio.file.Path f : files.toList()) {
                java.nio.file.Files.write(f, new byte[] {1, 2, 3});
            }
        }
        KnnIntentClassifier again = KnnIntentClassifier.build(new Counting("m1"), EXAMPLES, vote, dir);
        assertThat(batches).hasValue(4);
        assertThat(again.refine("where is my refund", rules(Intent.GENERAL, 0.3))).isPresent();
        KnnIntentClassifier.build(new Counting("m1"), EXAMPLES, vote, dir);
        assertThat(batches).hasValue(4);
    }

    @Test
    void theExamplesFileIsReadAndABadRowIsRefusedWithItsLine() throws Exception {
        String good = "text\tintent\n# a comment\n退款多久到账\treturns\n\nhello\tother\n";
        String bad = "text\tintent\n退款多久到账\treturns\n快递到哪了\tparcels\n";

        List<Example> read = IntentExamples.read(new ByteArrayInputStream(good.getBytes(StandardCharsets.UTF_8)), "good.tsv");

        assertThat(read).containsExactly(new Example("退款多久到账", ExampleLabel.RETURNS), new Example("hello", ExampleLabel.OTHER));
        assertThatThrownBy(() -> IntentExamples.read(new ByteArrayInputStream(bad.getBytes(StandardCharsets.UTF_8)), "bad.tsv"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad.tsv line 3")
            .hasMessageContaining("unknown label 'parcels'");
    }
}
