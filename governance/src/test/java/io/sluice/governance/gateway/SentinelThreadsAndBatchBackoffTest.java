package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18 item 12, against real Redis and the mock provider: the Sentinel THREAD-grade rule (the lane's local
 * guard, {@code sentinel.max-threads}) refuses a call beyond it; the batch lane's 100/300/900 ms backoff is
 * the schedule of its attempts, read from a recording clock instead of the wall clock.
 */
class SentinelThreadsAndBatchBackoffTest {

    private final GatewayFixture fixture = new GatewayFixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void aThreadGradeRuleRefusesTheCallBeyondItsThreadsWithoutCallingTheProvider() {
        GatewayFixture.LaneSettings interactive = fixture.lane(Lane.INTERACTIVE);
        interactive.maxThreads = 1;                  // no QPS rule (qps 0): only the thread grade can refuse
        interactive.permits = 8;                     // the cluster permits would still allow it
        GatewayFixture.Instance instance = fixture.instance();
        fixture.mock.scenario(Scenario.healthy().withFixedLatency(3000));
        CompletableFuture<LlmOutcome> first = CompletableFuture.supplyAsync(
            () -> instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "slow one", 8)));
        await().atMost(Duration.ofSeconds(10)).until(() -> fixture.mock.counters().requests() == 1);

        LlmOutcome second = instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "one too many", 8));

        assertThat(second).isInstanceOfSatisfying(LlmOutcome.Saturated.class,
            saturated -> assertThat(saturated.reason()).contains("local guard refused").contains("interactive"));
        assertThat(first.join()).isInstanceOf(LlmOutcome.Answered.class);
        assertThat(fixture.mock.counters().requests()).as("the refused call never reached the provider").isEqualTo(1);
        // the thread is back: the next call passes
        fixture.mock.scenario(Scenario.healthy());
        assertThat(instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "after", 8))).isInstanceOf(LlmOutcome.Answered.class);
    }

    /** One pause the gateway asked for: the provider calls made before it, and how long. */
    record Pause(long callsBefore, Duration delay) {
    }

    @Test
    void theBatchLaneRetriesAfter100Then300Then900MillisecondsAndThenGivesUp() {
        GatewayFixture.LaneSettings batch = fixture.lane(Lane.BATCH);
        batch.retries = 3;
        batch.backoff = List.of(Duration.ofMillis(100), Duration.ofMillis(300), Duration.ofMillis(900));   // application.yml
        batch.budget = Duration.ofSeconds(30);
        GatewayFixture.Instance instance = fixture.instance();
        List<Pause> pauses = new CopyOnWriteArrayList<>();
        long[] clock = {0};
        List<Long> attemptsAt = new CopyOnWriteArrayList<>();
        instance.governed().pauses(wait -> {
            pauses.add(new Pause(fixture.mock.counters().requests(), wait));
            clock[0] += wait.toMillis();              // a recording clock: time passes only by the pauses
        });
        fixture.mock.scenario(Scenario.healthy().withErrors(1.0, 503));

        LlmOutcome outcome = instance.gateway().call(GatewayFixture.ask(Lane.BATCH, "always failing", 8));

        assertThat(outcome).isInstanceOf(LlmOutcome.Degraded.class);
        assertThat(pauses).containsExactly(
            new Pause(1, Duration.ofMillis(100)), new Pause(2, Duration.ofMillis(300)), new Pause(3, Duration.ofMillis(900)));
        assertThat(fixture.mock.counters().requests()).as("first attempt + 3 retries").isEqualTo(4);
        long at = 0;
        attemptsAt.add(at);
        for (Pause pause : pauses) {
            at += pause.delay().toMillis();
            attemptsAt.add(at);
        }
        assertThat(attemptsAt).as("attempts on the recorded clock, ms").containsExactly(0L, 100L, 400L, 1300L);
        assertThat(clock[0]).isEqualTo(1300);
    }

    @Test
    void theInteractiveLaneRetriesOnceWithoutAPause() {
        GatewayFixture.Instance instance = fixture.instance();
        List<Duration> pauses = new CopyOnWriteArrayList<>();
        instance.governed().pauses(pauses::add);
        fixture.mock.scenario(Scenario.healthy().withErrors(1.0, 503));

        instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "always failing", 8));

        assertThat(fixture.mock.counters().requests()).isEqualTo(2);
        assertThat(pauses).isEmpty();
    }
}
