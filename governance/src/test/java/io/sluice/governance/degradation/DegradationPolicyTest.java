package io.sluice.governance.degradation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import io.sluice.governance.tier.FidelityTier;

import org.junit.jupiter.api.Test;

class DegradationPolicyTest {

    final DegradationPolicy policy = new DegradationPolicy(DegradationProperties.defaults());

    @Test
    void eachLevelLowersTheKnobsStepByStep() {
        LevelKnobs l0 = policy.knobs(DegradationLevel.L0);
        LevelKnobs l3 = policy.knobs(DegradationLevel.L3);

        assertThat(l0.highestTier()).isEqualTo(FidelityTier.F4);
        assertThat(l0.laneBAdmitted()).isTrue();
        assertThat(policy.knobs(DegradationLevel.L1).topK()).isLessThan(l0.topK());
        assertThat(policy.knobs(DegradationLevel.L2).laneBAdmitted()).isFalse();
        assertThat(l3.highestTier()).isEqualTo(FidelityTier.F1);
        assertThat(l3.cacheThreshold()).isLessThan(l0.cacheThreshold());
        assertThat(l3.maxTokens()).isLessThan(l0.maxTokens());
    }

    @Test
    void theHighestTierCapsBetterTiersAndKeepsLowerOnes() {
        LevelKnobs l2 = policy.knobs(DegradationLevel.L2);
        assertThat(l2.cap(FidelityTier.F4)).isEqualTo(FidelityTier.F2);
        assertThat(l2.cap(FidelityTier.F1)).isEqualTo(FidelityTier.F1);
    }

    @Test
    void signalsMapToTheMostDegradedLevelTheyFire() {
        assertThat(policy.calledFor(DegradationSignals.IDLE)).isEqualTo(DegradationLevel.L0);
        assertThat(policy.calledFor(new DegradationSignals(0, 0, 0.85, 0))).isEqualTo(DegradationLevel.L1);
        assertThat(policy.calledFor(new DegradationSignals(9_000, 0, 0, 0))).isEqualTo(DegradationLevel.L2);
        assertThat(policy.calledFor(new DegradationSignals(0, 0, 0, 500))).isEqualTo(DegradationLevel.L3);
    }

    @Test
    void configuredLevelsOverrideOnlyWhatTheyName() {
        LevelKnobs custom = new LevelKnobs(FidelityTier.F3, 0.95, 3, 700, "primary", true);
        DegradationProperties properties = new DegradationProperties("p:", true, Duration.ofSeconds(1),
            Duration.ofMinutes(1), Duration.ofSeconds(30), Map.of(DegradationLevel.L0, custom), null);

        DegradationPolicy configured = new DegradationPolicy(properties);

        assertThat(configured.knobs(DegradationLevel.L0)).isEqualTo(custom);
        assertThat(configured.knobs(DegradationLevel.L3).highestTier()).isEqualTo(FidelityTier.F1);
    }
}
