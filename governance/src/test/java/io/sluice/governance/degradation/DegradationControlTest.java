package io.sluice.governance.degradation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;

/** Two instances sharing the real Redis from {@code SLUICE_REDIS_URL}: one cluster-wide level. */
class DegradationControlTest {

    final RedissonClient redisson = redisson();
    final String prefix = "test:" + UUID.randomUUID() + ":degradation:";
    final DegradationProperties properties = new DegradationProperties(prefix, true, Duration.ofSeconds(1),
        Duration.ofMinutes(3), Duration.ofSeconds(30), null, null);
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    volatile DegradationSignals struggling = DegradationSignals.IDLE;

    final DegradationControl a = new DegradationControl(redisson, properties, List.of(() -> struggling), meters,
        Clock.systemUTC());
    final DegradationControl b = new DegradationControl(redisson, properties, List.of(() -> DegradationSignals.IDLE),
        new SimpleMeterRegistry(), Clock.systemUTC());

    static RedissonClient redisson() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: run `eval \"$(scripts/services-up.sh)\"` first");
        }
        return Redisson.create(io.sluice.governance.cluster.RedisTopology.ofUrl(url).toConfig(3_000, 2_000, 0));
    }

    @AfterEach
    void close() {
        if (!redisson.isShutdown()) {
            redisson.getKeys().deleteByPattern(prefix + "*");
            redisson.shutdown();
        }
    }

    @Test
    void theWorstInstancesProposalIsTheClusterLevel() {
        struggling = new DegradationSignals(20_000, 0, 0, 0);
        a.evaluate();
        a.refresh();
        b.evaluate();
        b.refresh();

        assertThat(a.level()).isEqualTo(DegradationLevel.L3);
        assertThat(b.level()).as("B is healthy itself but follows the cluster").isEqualTo(DegradationLevel.L3);
        assertThat(b.knobs().highestTier()).isEqualTo(io.sluice.governance.tier.FidelityTier.F1);
        assertThat(meters.get("sluice.degradation.changes").tag("to", "L3").counter().count()).isEqualTo(1);
        assertThat(meters.get("sluice.degradation.level").gauge().value()).isEqualTo(3);
    }

    @Test
    void cacheThresholdOverridesReachEveryInstanceOnItsNextRefreshAndInvalidOnesChangeNothing() {
        java.util.Map<DegradationLevel, Double> tuned = java.util.Map.of(DegradationLevel.L0, 0.96,
            DegradationLevel.L1, 0.93, DegradationLevel.L2, 0.8, DegradationLevel.L3, 0.7);
        b.overrideCacheThresholds(tuned, "operator");
        a.refresh();

        assertThat(a.knobs(DegradationLevel.L2).cacheThreshold()).isEqualTo(0.8);
        assertThat(a.cacheThresholdOverrides()).isEqualTo(tuned);

        java.util.Map<DegradationLevel, Double> rising = new java.util.EnumMap<>(tuned);
        rising.put(DegradationLevel.L3, 0.99);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.overrideCacheThresholds(rising, "operator"))
            .isInstanceOf(IllegalArgumentException.class);
        a.refresh();
        assertThat(a.knobs(DegradationLevel.L3).cacheThreshold()).isEqualTo(0.7);

        b.resetCacheThresholds("operator");
        a.refresh();
        assertThat(a.knobs(DegradationLevel.L2).cacheThreshold()).isEqualTo(0.87);
        assertThat(a.cacheThresholdOverrides()).isEmpty();
    }

    @Test
    void aPinOverridesTheSignalsOnEveryInstanceUntilRemoved() {
        b.pin(DegradationLevel.L2, "operator", "provider incident");
        a.refresh();

        assertThat(a.level()).isEqualTo(DegradationLevel.L2);
        assertThat(a.state().pinned().actor()).isEqualTo("operator");
        assertThat(a.state().reason()).contains("provider incident");

        b.unpin("operator");
        a.refresh();
        assertThat(a.level()).isEqualTo(DegradationLevel.L0);
    }

    @Test
    void withRedisDownAnInstanceKeepsItsLastPinAndItsOwnSignals() {
        b.pin(DegradationLevel.L1, "operator", "");
        a.refresh();
        redisson.shutdown();
        struggling = new DegradationSignals(0, 0.3, 0, 0);

        a.evaluate();
        a.refresh();

        assertThat(a.level()).as("the last known pin still rules").isEqualTo(DegradationLevel.L1);
        assertThat(a.state().automatic()).isEqualTo(DegradationLevel.L2);
    }
}
