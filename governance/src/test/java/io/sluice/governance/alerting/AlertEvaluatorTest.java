package io.sluice.governance.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class AlertEvaluatorTest {

    private final Map<String, Double> values = new HashMap<>();
    private final Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
    private final AlertEvaluator evaluator = new AlertEvaluator(List.of(
        AlertRule.above("slow", "p95-latency-ms", 8000, Duration.ofMinutes(2), "warning"),
        new AlertRule("degraded", "degradation-level", 0.0, null, Duration.ZERO, "warning", null, true),
        AlertRule.below("budget", "metric:sluice.gateway.tpm.remaining", 1000, Duration.ZERO, "warning")), "i-1");

    private List<Alert> at(Duration sinceStart) {
        return evaluator.evaluate(s -> values.containsKey(s) ? OptionalDouble.of(values.get(s)) : OptionalDouble.empty(),
            t0.plus(sinceStart));
    }

    @Test
    void firesOnlyAfterTheConditionHeldForItsDuration_andResolvesWhenItStops() {
        values.put("p95-latency-ms", 9000.0);
        assertThat(at(Duration.ZERO)).isEmpty();
        assertThat(at(Duration.ofSeconds(119))).isEmpty();

        List<Alert> fired = at(Duration.ofSeconds(120));
        assertThat(fired).singleElement().satisfies(a -> {
            assertThat(a.rule().name()).isEqualTo("slow");
            assertThat(a.firing()).isTrue();
            assertThat(a.value()).isEqualTo(9000.0);
            assertThat(a.instance()).isEqualTo("i-1");
        });
        assertThat(at(Duration.ofSeconds(125))).as("firing is notified once").isEmpty();

        values.put("p95-latency-ms", 500.0);
        assertThat(at(Duration.ofSeconds(130))).singleElement().satisfies(a -> {
            assertThat(a.firing()).isFalse();
            assertThat(a.endsAt()).isEqualTo(t0.plusSeconds(130));
        });
        assertThat(evaluator.firing()).isEmpty();
    }

    @Test
    void aDipBelowTheBoundRestartsThePendingTime() {
        values.put("p95-latency-ms", 9000.0);
        at(Duration.ZERO);
        values.put("p95-latency-ms", 100.0);
        at(Duration.ofSeconds(60));
        values.put("p95-latency-ms", 9000.0);
        assertThat(at(Duration.ofSeconds(61))).isEmpty();
        assertThat(at(Duration.ofSeconds(180))).isEmpty();
        assertThat(at(Duration.ofSeconds(181))).hasSize(1);
    }

    @Test
    void aLevelChangeWhileDegradedIsNotifiedAgain() {
        values.put("degradation-level", 1.0);
        assertThat(at(Duration.ZERO)).extracting(Alert::value).containsExactly(1.0);
        values.put("degradation-level", 2.0);
        assertThat(at(Duration.ofSeconds(5))).extracting(Alert::value).containsExactly(2.0);
        assertThat(at(Duration.ofSeconds(10))).isEmpty();
        values.put("degradation-level", 0.0);
        assertThat(at(Duration.ofSeconds(15))).singleElement().extracting(Alert::firing).isEqualTo(false);
    }

    @Test
    void noDataNeverFires_andResolvesAFiringAlert() {
        assertThat(at(Duration.ZERO)).as("no budget limit set: the gauge has no data").isEmpty();
        values.put("metric:sluice.gateway.tpm.remaining", 200.0);
        assertThat(at(Duration.ofSeconds(1))).hasSize(1);
        values.remove("metric:sluice.gateway.tpm.remaining");
        assertThat(at(Duration.ofSeconds(2))).singleElement().extracting(Alert::firing).isEqualTo(false);
    }

    @Test
    void badRulesAreRefusedWithAClearMessage() {
        assertThatThrownBy(() -> AlertRule.above("x", "cpu-of-the-moon", 1, Duration.ZERO, "warning"))
            .hasMessageContaining("unknown signal");
        assertThatThrownBy(() -> new AlertRule("x", "queue-length", 1.0, 2.0, Duration.ZERO, null, null, null))
            .hasMessageContaining("exactly one of above / below");
        assertThatThrownBy(() -> AlertRule.above("x", "queue-length", 1, Duration.ZERO, "page-everyone"))
            .hasMessageContaining("severity");
        assertThatThrownBy(() -> new AlertEvaluator(List.of(AlertRule.above("x", "queue-length", 1, Duration.ZERO, null),
            AlertRule.above("x", "error-ratio", 1, Duration.ZERO, null)), "i")).hasMessageContaining("two rules");
    }
}
