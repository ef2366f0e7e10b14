package io.sluice.semantics.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The operating points: out of domain falls to B, enough S probability is S; the scores' figures. */
class IntentModelDecisionTest {

    final IntentModel model = new IntentModel(List.of("fraud", "fee", "hours"), List.of("S", "A", "B"),
        new float[3][2], 1, 0.4, 0.3, "test", List.of());

    @Test
    void theTopClassDecidesWhenConfident() {
        assertThat(model.decide(new double[] {0.1, 0.8, 0.1})).satisfies(d -> {
            assertThat(d.intent()).isEqualTo("fee");
            assertThat(d.priority()).isEqualTo("A");
        });
    }

    @Test
    void enoughSProbabilityIsSEvenWhenAnotherClassIsOnTop() {
        assertThat(model.decide(new double[] {0.35, 0.15, 0.5})).satisfies(d -> {
            assertThat(d.intent()).isEqualTo("fraud");
            assertThat(d.priority()).isEqualTo("S");
            assertThat(d.reason()).isEqualTo("s_floor");
        });
    }

    @Test
    void aMessageUnlikeEveryIntentIsOutOfDomainAndB() {
        IntentModel wide = new IntentModel(List.of("a", "b", "c", "d"), List.of("S", "A", "B", "B"), new float[4][2], 1,
            0.4, 0.5, "test", List.of());
        assertThat(wide.decide(new double[] {0.2, 0.3, 0.25, 0.25})).satisfies(d -> {
            assertThat(d.intent()).isEqualTo(IntentModel.OUT_OF_DOMAIN);
            assertThat(d.priority()).isEqualTo("B");
        });
    }

    @Test
    void probabilitiesAreASoftmaxOfTheLinearScores() {
        float[][] w = {{1, 0}, {0, 0}, {-1, 0}};
        IntentModel linear = new IntentModel(List.of("a", "b", "c"), List.of("S", "A", "B"), w, 1, 0, 1, "t", List.of());
        double[] p = linear.probabilities(new float[] {2});
        assertThat(p[0] + p[1] + p[2]).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p[0] / p[1]).isCloseTo(Math.exp(2), org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void scoresCountSToBAndPerClassPrecisionRecall() {
        IntentScores.Summary s = IntentScores.of(List.of(
            new IntentScores.Judged("fraud", "S", "fraud", "S"),
            new IntentScores.Judged("fraud", "S", "hours", "B"),
            new IntentScores.Judged("fee", "A", "fee", "A"),
            new IntentScores.Judged(null, "B", "out_of_domain", "B")));

        assertThat(s.priorityAccuracy()).isEqualTo(0.75);
        assertThat(s.sToB()).isEqualTo(0.5);
        assertThat(s.confusion()[0]).containsExactly(1, 0, 1);
        assertThat(s.perPriority().get("B").precision()).isEqualTo(0.5);
        assertThat(s.perIntent().get("fraud").recall()).isEqualTo(0.5);
        assertThat(s.intentAccuracy()).isCloseTo(2 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(s.notWorseThan(s, 0)).isTrue();
        assertThat(s.metrics()).containsKeys("priority-accuracy", "s-to-b-rate", "S-recall");
    }

    @Test
    void theCodecRoundTripsAndRefusesGarbage() {
        IntentModelCodec codec = new IntentModelCodec();
        IntentModel back = codec.decode(codec.encode(new IntentModel(List.of("a", "b"), List.of("S", "B"),
            new float[][] {{1, 2}, {3, 4}}, 0.5, 0.3, 0.4, "bge", List.of(new LabelledText("x", "a")))));
        assertThat(back.weights()[1]).containsExactly(3, 4);
        assertThat(back.heldOut()).containsExactly(new LabelledText("x", "a"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> codec.decode(new byte[] {1, 2, 3}))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
