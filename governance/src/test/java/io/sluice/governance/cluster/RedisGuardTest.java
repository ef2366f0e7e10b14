package io.sluice.governance.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisException;

class RedisGuardTest {

    final RedisGuard guard = new RedisGuard(Duration.ofSeconds(5));

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void aFailingRedisIsSkippedUntilTheRecheck() {
        String answer = guard.call(() -> {
            throw new RedisException("connection refused");
        }, () -> "local");

        assertThat(answer).isEqualTo("local");
        assertThat(guard.down()).isTrue();
        assertThat(guard.call(() -> "redis", () -> "local")).isEqualTo("local");
    }

    @Test
    void anInterruptedCallerDoesNotMarkRedisDown() {
        String answer = guard.call(() -> {
            throw new RedisException("interrupted", new InterruptedException());
        }, () -> "local");

        assertThat(answer).isEqualTo("local");
        assertThat(guard.down()).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is kept for the caller").isTrue();
    }
}
