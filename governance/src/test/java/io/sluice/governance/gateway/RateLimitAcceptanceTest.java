package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import io.sluice.governance.breaker.ConsecutiveFailureBreaker.State;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Acceptance: a 429 is a rate signal shared by the cluster, never a breaker failure. */
class RateLimitAcceptanceTest {

    private final GatewayFixture fixture = new GatewayFixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void a429WithRetryAfterTwoCoolsDownEveryInstanceWithoutOpeningABreaker() {
        fixture.tpmLimit = 20_000;
        GatewayFixture.LaneSettings intent = fixture.lane(Lane.INTENT);
        intent.breakerFailures = 1;   // the fast-path breaker would open on one counted failure
        intent.errorRatio = 0.5;      // and so would the Sentinel error-ratio breaker
        intent.minRequests = 1;
        GatewayFixture.LaneSettings batch = fixture.lane(Lane.BATCH);
        batch.rateLimitWait = Duration.ofSeconds(5);
        batch.budget = Duration.ofSeconds(10);
        GatewayFixture.Instance first = fixture.instance();
        GatewayFixture.Instance second = fixture.instance();
        fixture.mock.scenario(Scenario.healthy().withRateLimited(1.0, 2));

        LlmOutcome limited = first.gateway().call(GatewayFixture.ask(Lane.INTENT, "hello", 8));

        assertThat(limited).isInstanceOfSatisfying(LlmOutcome.Saturated.class,
            saturated -> assertThat(saturated.retryAfter()).isEqualTo(Duration.ofSeconds(2)));
        assertThat(fixture.mock.counters().rejected()).isEqualTo(1);
        assertThat(first.governed().breakerState(Lane.INTENT)).isEqualTo(State.CLOSED);
        // the settle-and-sync script runs without the call waiting for it
        await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(first.assembly().rateLimits().remaining())
            .as("the shared token bucket follows x-ratelimit-remaining-tokens: 0 until the reset").isZero());

        // the next calls on the other instance degrade as their lanes say, without asking the provider
        assertThat(second.gateway().call(GatewayFixture.ask(Lane.INTENT, "hello", 8)))
            .isInstanceOfSatisfying(LlmOutcome.Saturated.class, s -> assertThat(s.reason()).contains("cool-down"));
        assertThat(second.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8)))
            .isInstanceOf(LlmOutcome.Saturated.class);
        assertThat(fixture.mock.counters().requests()).isEqualTo(1);

        // the batch lane waits the cool-down out inside its budget, then is served
        fixture.mock.scenario(Scenario.healthy());
        assertThat(second.gateway().call(GatewayFixture.ask(Lane.BATCH, "summarise", 8)))
            .isInstanceOf(LlmOutcome.Answered.class);

        // no breaker opened: the intent lane answers again
        assertThat(first.gateway().call(GatewayFixture.ask(Lane.INTENT, "hello again", 8)))
            .isInstanceOf(LlmOutcome.Answered.class);
    }
}
