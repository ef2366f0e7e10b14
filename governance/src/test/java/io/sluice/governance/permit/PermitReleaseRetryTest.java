package io.sluice.governance.permit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.cluster.RedisTopology;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisTimeoutException;

/**
 * A permit whose release Redis did not take (it looked unreachable: the guard had just seen a command time out)
 * goes back once Redis answers again, not only when its lease ends (real Redis; the lease here is 10 minutes).
 */
class PermitReleaseRetryTest {

    private final String prefix = "sluice:test:permit-release-retry:" + UUID.randomUUID() + ":";
    private final RedissonClient redisson = Redisson.create(RedisTopology.ofUrl(redisUrl()).toConfig(5000, 1000, 0));
    private final RedisGuard guard = new RedisGuard(Duration.ofMillis(300));
    private final ClusterPermits permits = new ClusterPermits(redisson,
        new PermitProperties(prefix, Map.of("interactive", new PermitProperties.Lane(4, Duration.ofMillis(100),
            Duration.ofMinutes(10)))), guard, () -> 1);

    @AfterEach
    void cleanUp() {
        permits.close();
        redisson.getKeys().deleteByPattern(prefix + "*");
        redisson.shutdown();
    }

    @Test
    void releasesThatFindRedisDownAreSentAgainOnceItAnswers() {
        List<PermitLease> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(permits.acquire("interactive"));
        }
        assertThat(permits.inUse("interactive")).isEqualTo(3);

        // a command that timed out: the guard treats Redis as down for its recheck window
        guard.call(() -> {
            throw new RedisTimeoutException("Command still hasn't been written into connection (test)");
        }, () -> null);
        assertThat(guard.down()).isTrue();
        calls.forEach(PermitLease::close);
        assertThat(permits.pendingReleases()).as("the releases are kept, not dropped").isEqualTo(3);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(permits.pendingReleases()).isZero();
            assertThat(permits.inUse("interactive")).as("every permit back in Redis, long before the lease").isZero();
        });
    }

    private static String redisUrl() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: this test needs a real Redis");
        }
        return url;
    }
}
