package io.sluice.governance.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.sluice.governance.breaker.ConsecutiveFailureBreaker.State;

import org.junit.jupiter.api.Test;

class ConsecutiveFailureBreakerTest {

    private final AtomicLong now = new AtomicLong();
    private final ConsecutiveFailureBreaker breaker = new ConsecutiveFailureBreaker(3, Duration.ofSeconds(60), now::get);

    @Test
    void opensAfterThreeConsecutiveFailures() {
        failTimes(3);

        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.tryAcquire()).isFalse();
    }

    @Test
    void aSuccessInBetweenResetsTheCount() {
        failTimes(2);
        breaker.tryAcquire();
        breaker.onSuccess();
        failTimes(2);

        assertThat(breaker.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void afterTheCoolDownExactlyOneProbeGoesThroughAndItsSuccessCloses() {
        failTimes(3);
        now.addAndGet(Duration.ofSeconds(60).toNanos());

        assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.tryAcquire()).isTrue();
        assertThat(breaker.tryAcquire()).isFalse();
        breaker.onSuccess();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(breaker.tryAcquire()).isTrue();
    }

    @Test
    void aFailedProbeOpensItAgainForAFullCoolDown() {
        failTimes(3);
        now.addAndGet(Duration.ofSeconds(60).toNanos());
        breaker.tryAcquire();
        breaker.onFailure();

        assertThat(breaker.state()).isEqualTo(State.OPEN);
        now.addAndGet(Duration.ofSeconds(59).toNanos());
        assertThat(breaker.tryAcquire()).isFalse();
    }

    @Test
    void aProbeThatNeverReachedTheDependencyLetsTheNextCallerProbe() {
        failTimes(3);
        now.addAndGet(Duration.ofSeconds(60).toNanos());
        breaker.tryAcquire();
        breaker.onIgnored();

        assertThat(breaker.tryAcquire()).isTrue();
    }

    private void failTimes(int n) {
        for (int i = 0; i < n; i++) {
            breaker.tryAcquire();
            breaker.onFailure();
        }
    }

    @Test
    void countsEachOpeningOnce_includingAFailedProbe() {
        failTimes(5); // opens at the third failure; further failures while open are not new openings
        assertThat(breaker.openings()).isEqualTo(1);

        now.addAndGet(Duration.ofSeconds(60).toNanos());
        assertThat(breaker.tryAcquire()).isTrue(); // the probe
        breaker.onFailure();

        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.openings()).isEqualTo(2);
    }
}
