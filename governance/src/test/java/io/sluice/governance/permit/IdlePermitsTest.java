package io.sluice.governance.permit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The idle permits of one lane: newest first, never past their window, never more than the cap, dropped after a recovery. */
class IdlePermitsTest {

    private final IdlePermits idle = new IdlePermits();
    private final List<IdlePermits.Idle> expired = new ArrayList<>();

    @Test
    void theNewestIdlePermitIsTakenFirst() {
        idle.park(new IdlePermits.Idle("old", 1_000, 0), 0, 0, 10);
        idle.park(new IdlePermits.Idle("new", 1_000, 0), 0, 0, 10);

        assertThat(idle.take(10, 0, expired).permitId()).isEqualTo("new");
        assertThat(idle.take(10, 0, expired).permitId()).isEqualTo("old");
        assertThat(idle.take(10, 0, expired)).isNull();
    }

    @Test
    void aPermitPastItsWindowIsNeitherParkedNorTakenButHandedBackForRelease() {
        assertThat(idle.park(new IdlePermits.Idle("late", 100, 0), 100, 0, 10)).isFalse();
        idle.park(new IdlePermits.Idle("soon-late", 200, 0), 150, 0, 10);

        assertThat(idle.take(200, 0, expired)).isNull();
        assertThat(expired).extracting(IdlePermits.Idle::permitId).containsExactly("soon-late");
    }

    @Test
    void noMoreThanTheCapWaitsIdle() {
        assertThat(idle.park(new IdlePermits.Idle("a", 1_000, 0), 0, 0, 2)).isTrue();
        assertThat(idle.park(new IdlePermits.Idle("b", 1_000, 0), 0, 0, 2)).isTrue();
        assertThat(idle.park(new IdlePermits.Idle("c", 1_000, 0), 0, 0, 2)).isFalse();
        assertThat(idle.park(new IdlePermits.Idle("d", 1_000, 0), 0, 0, 0)).isFalse();
        assertThat(idle.size()).isEqualTo(2);
    }

    @Test
    void expiringReturnsWhatIsPastItsWindowAndWhatIsBeyondAShrunkCap() {
        idle.park(new IdlePermits.Idle("ending", 100, 0), 0, 0, 10);
        idle.park(new IdlePermits.Idle("older", 1_000, 0), 0, 0, 10);
        idle.park(new IdlePermits.Idle("newest", 1_000, 0), 0, 0, 10);

        assertThat(idle.expire(100, 1_000, 1)).extracting(IdlePermits.Idle::permitId).containsExactly("ending", "older");
        assertThat(idle.drain()).extracting(IdlePermits.Idle::permitId).containsExactly("newest");
    }

    @Test
    void aPermitIdleLongerThanTheLingerGoesBackWithinItsWindow() {
        idle.park(new IdlePermits.Idle("parked early", 10_000, 0), 0, 0, 10);
        idle.park(new IdlePermits.Idle("parked late", 10_000, 400), 400, 0, 10);

        assertThat(idle.expire(500, 250, 10)).extracting(IdlePermits.Idle::permitId).containsExactly("parked early");
        assertThat(idle.size()).isEqualTo(1);
    }

    @Test
    void afterARedisRecoveryNoIdlePermitIsReusedOrParkedFromBefore() {
        idle.park(new IdlePermits.Idle("before", 1_000, 0), 0, 0, 10);

        assertThat(idle.take(10, 1, expired)).as("Redis recovered: the id may name nothing").isNull();
        assertThat(expired).isEmpty();
        assertThat(idle.size()).isZero();
        assertThat(idle.park(new IdlePermits.Idle("acquired before", 1_000, 0), 10, 0, 10)).isFalse();
        assertThat(idle.park(new IdlePermits.Idle("acquired after", 1_000, 0), 10, 1, 10)).isTrue();
    }
}
