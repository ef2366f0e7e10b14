package io.sluice.governance.degradation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmParameters;
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

        // a level without sampling knobs keeps the built-in ones of every lane
        assertThat(configured.knobs(DegradationLevel.L0)).isEqualTo(custom.withGeneration(
            DegradationProperties.defaults().levels().get(DegradationLevel.L0).generation()));
        assertThat(configured.knobs(DegradationLevel.L3).highestTier()).isEqualTo(FidelityTier.F1);
    }

    @Test
    void eachLevelCarriesTemperatureAndTopPPerLaneAndALevelNamesOnlyTheLanesItChanges() {
        LevelKnobs custom = new LevelKnobs(FidelityTier.F2, 0.9, 1, 200, "light", false,
            Map.of(Lane.INTERACTIVE, new Generation(0.05, 0.5)));
        DegradationPolicy configured = new DegradationPolicy(new DegradationProperties("p:", true, Duration.ofSeconds(1),
            Duration.ofMinutes(1), Duration.ofSeconds(30), Map.of(DegradationLevel.L2, custom), null));

        LlmParameters interactive = configured.knobs(DegradationLevel.L2).parameters(Lane.INTERACTIVE, LlmParameters.NONE);
        assertThat(interactive.values().get("temperature").asDouble()).isEqualTo(0.05);
        assertThat(interactive.values().get("top_p").asDouble()).isEqualTo(0.5);
        // batch was not named: the built-in L2 batch knobs
        assertThat(configured.knobs(DegradationLevel.L2).generation(Lane.BATCH)).isEqualTo(new Generation(0.0, 0.8));
        assertThat(configured.knobs(DegradationLevel.L0).generation(Lane.INTERACTIVE)).isEqualTo(new Generation(0.3, 0.9));
        // a caller's own value wins (a /v1 client's temperature)
        LlmParameters own = new LlmParameters(Map.of("temperature",
            tools.jackson.databind.node.JsonNodeFactory.instance.numberNode(1.2)));
        LlmParameters merged = configured.knobs(DegradationLevel.L2).parameters(Lane.INTERACTIVE, own);
        assertThat(merged.values().get("temperature").asDouble()).isEqualTo(1.2);
        assertThat(merged.values().get("top_p").asDouble()).isEqualTo(0.5);
        assertThatThrownBy(() -> new Generation(2.5, null)).hasMessageContaining("temperature");
        assertThatThrownBy(() -> new Generation(null, 0.0)).hasMessageContaining("top-p");
    }

    @Test
    void anOperatorOverridesOnlyTheCacheThresholdOfEachLevel() {
        DegradationPolicy tuned = new DegradationPolicy(DegradationProperties.defaults());
        LevelKnobs l2 = tuned.knobs(DegradationLevel.L2);

        tuned.overrideCacheThresholds(Map.of(DegradationLevel.L0, 0.97, DegradationLevel.L1, 0.9,
            DegradationLevel.L2, 0.9, DegradationLevel.L3, 0.6));

        assertThat(tuned.knobs(DegradationLevel.L2)).isEqualTo(l2.withCacheThreshold(0.9));
        assertThat(tuned.knobs(DegradationLevel.L3).cacheThreshold()).isEqualTo(0.6);
        assertThat(tuned.configuredKnobs(DegradationLevel.L0).cacheThreshold()).isEqualTo(0.92);
        tuned.overrideCacheThresholds(Map.of());
        assertThat(tuned.knobs(DegradationLevel.L2)).isEqualTo(l2);
    }

    @Test
    void invalidCacheThresholdsAreRefusedAndTheKnobsStay() {
        DegradationPolicy tuned = new DegradationPolicy(DegradationProperties.defaults());
        LevelKnobs l1 = tuned.knobs(DegradationLevel.L1);

        assertThatThrownBy(() -> tuned.overrideCacheThresholds(Map.of(DegradationLevel.L0, 0.9, DegradationLevel.L1, 0.95,
            DegradationLevel.L2, 0.8, DegradationLevel.L3, 0.7)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("L1 (0.95) must not be above L0");
        assertThatThrownBy(() -> tuned.overrideCacheThresholds(Map.of(DegradationLevel.L0, 1.2, DegradationLevel.L1, 0.9,
            DegradationLevel.L2, 0.8, DegradationLevel.L3, 0.7)))
            .hasMessageContaining("between 0.5 and 1.0");
        assertThatThrownBy(() -> tuned.overrideCacheThresholds(Map.of(DegradationLevel.L0, 0.9)))
            .hasMessageContaining("needed for L1");
        assertThat(tuned.knobs(DegradationLevel.L1)).isEqualTo(l1);
        assertThat(tuned.cacheThresholdOverrides()).isEmpty();
    }
}
