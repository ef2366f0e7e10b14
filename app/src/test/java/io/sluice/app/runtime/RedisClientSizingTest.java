package io.sluice.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.redisson.config.Config;
import org.springframework.mock.env.MockEnvironment;

/** The Redis client's threads follow the machine unless {@code sluice.redis.event-loop-threads} says otherwise. */
class RedisClientSizingTest {

    @Test
    void byDefaultTwoEventLoopsPerCoreAtLeastFourNotRedissonsThirtyTwo() {
        Config config = RedisConfiguration.sized(new Config(), new MockEnvironment());
        int expected = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        assertThat(config.getNettyThreads()).isEqualTo(expected);
        assertThat(config.getThreads()).isEqualTo(expected);
    }

    @Test
    void aConfiguredCountIsUsedAsGiven() {
        Config config = RedisConfiguration.sized(new Config(),
            new MockEnvironment().withProperty("sluice.redis.event-loop-threads", "12"));
        assertThat(config.getNettyThreads()).isEqualTo(12);
        assertThat(config.getThreads()).isEqualTo(12);
    }

    @Test
    void aNegativeCountIsRefusedByName() {
        assertThatThrownBy(() -> RedisConfiguration.sized(new Config(),
            new MockEnvironment().withProperty("sluice.redis.event-loop-threads", "-1")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sluice.redis.event-loop-threads");
    }
}
