package io.sluice.governance.derived;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class DerivedThresholdTest {

    @Test
    void theProviderCapBindsWhenTheBudgetAllowsMore() {
        DerivedThreshold t = DerivedThreshold.derive(10, 600, Duration.ofSeconds(5));

        assertThat(t.byProvider()).isEqualTo(8.0);
        assertThat(t.byBudget()).isEqualTo(50.0);
        assertThat(t.permits()).isEqualTo(8);
        assertThat(t.explanation()).contains("bound by provider concurrency").contains("→ 8 permits");
    }

    @Test
    void theCallBudgetTimesP99BindsWhenItIsSmaller() {
        DerivedThreshold t = DerivedThreshold.derive(100, 120, Duration.ofMillis(2500));

        assertThat(t.byBudget()).isEqualTo(5.0);
        assertThat(t.permits()).isEqualTo(5);
        assertThat(t.explanation()).contains("bound by call budget × p99 latency");
    }

    @Test
    void neverBelowOnePermit() {
        assertThat(DerivedThreshold.derive(1, 1, Duration.ofMillis(10)).permits()).isEqualTo(1);
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> DerivedThreshold.derive(0, 10, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
    }
}
