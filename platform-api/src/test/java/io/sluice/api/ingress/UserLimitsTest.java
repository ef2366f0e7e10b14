package io.sluice.api.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/** Two instances' per-user limits sharing the real Redis from {@code SLUICE_REDIS_URL}. */
class UserLimitsTest {

    final RedissonClient redisson = UserTokenBucketTest.redisson();
    final String prefix = "test:" + UUID.randomUUID() + ":bucket:";
    final RateLimitProperties.User configured = new RateLimitProperties.User(4, 0.001, 3, 0.5, prefix, Duration.ofMinutes(1));
    final UserLimits a = new UserLimits(redisson, configured);
    final UserLimits b = new UserLimits(redisson, configured);

    @AfterEach
    void close() {
        a.close();
        b.close();
        redisson.getKeys().deleteByPattern(prefix.substring(0, prefix.length() - 1) + "*");
        redisson.shutdown();
    }

    @Test
    void aChangeOnOneInstanceReachesTheOthersAndTheirBuckets() {
        UserTokenBucket bucketOfB = new UserTokenBucket(redisson, configured, b::current, new SimpleMeterRegistry());
        UserLimits.Limits tighter = new UserLimits.Limits(2, 0.001, 5);

        a.replace(tighter);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(b.current()).isEqualTo(tighter));
        // a new user starts at half of 2 tokens: one request, then refused
        assertThat(bucketOfB.take("carol", false).allowed()).isTrue();
        assertThat(bucketOfB.take("carol", false).allowed()).isFalse();
        try (UserLimits startedLater = new UserLimits(redisson, configured)) {
            assertThat(startedLater.current()).as("read from Redis at start").isEqualTo(tighter);
        }

        b.resetToConfigured();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(a.current()).isEqualTo(a.configured()));
    }

    @Test
    void invalidLimitsAreRefusedWithTheirReason() {
        assertThatThrownBy(() -> new UserLimits.Limits(0, 1, 3)).hasMessageContaining("capacity must be between 1");
        assertThatThrownBy(() -> new UserLimits.Limits(10, 0, 3)).hasMessageContaining("refill per second");
        assertThatThrownBy(() -> new UserLimits.Limits(10, 1, 0.5)).hasMessageContaining("VIP multiplier");
        assertThat(a.current()).isEqualTo(a.configured());
    }
}
