package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import java.util.Set;

import io.sluice.governance.breaker.ConsecutiveFailureBreaker;
import io.sluice.governance.gateway.LlmOutcome.Reason;
import io.sluice.governance.intent.IntentParser;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How one governed call behaves against real Redis and the mock provider. */
class GatewayBehaviourTest {

    private final GatewayFixture fixture = new GatewayFixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void aHealthyProviderAnswersThroughTheGatewayAndThePermitIsReturned() {
        GatewayFixture.Instance instance = fixture.instance();

        LlmOutcome outcome = instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello there", 8));

        assertThat(outcome).isInstanceOfSatisfying(LlmOutcome.Answered.class, answered -> {
            assertThat(answered.text()).startsWith("tok0 ");
            assertThat(answered.model()).isEqualTo(GatewayFixture.PRIMARY_MODEL);
            assertThat(answered.completionTokens()).isEqualTo(8);
            assertThat(answered.attempts()).isEqualTo(1);
            assertThat(answered.fallbackModel()).isFalse();
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> instance.assembly().permits().inUse("interactive") == 0);
    }

    @Test
    void aServerErrorIsRetriedOnceImmediatelyThenDegrades() {
        GatewayFixture.Instance instance = fixture.instance();
        fixture.mock.scenario(Scenario.healthy().withErrors(1.0, 503));

        LlmOutcome outcome = instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8));

        assertThat(outcome).isEqualTo(new LlmOutcome.Degraded(Reason.PROVIDER_ERROR, "SERVER_ERROR: HTTP 503"));
        assertThat(fixture.mock.counters().requests()).isEqualTo(2);
    }

    @Test
    void aFailingPrimaryFallsBackToTheLightModelWithoutRestartingItsRetries() {
        fixture.primaryFallsBackToLight = true;
        GatewayFixture.Instance instance = fixture.instance();
        fixture.mock.scenario(Scenario.healthy().withFailingModels(GatewayFixture.PRIMARY_MODEL));

        LlmOutcome outcome = instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8));

        assertThat(outcome).isInstanceOfSatisfying(LlmOutcome.Answered.class, answered -> {
            assertThat(answered.model()).isEqualTo(GatewayFixture.LIGHT_MODEL);
            assertThat(answered.fallbackModel()).isTrue();
            assertThat(answered.attempts()).isEqualTo(3);
        });
        assertThat(fixture.mock.counters().requests()).isEqualTo(3);
    }

    @Test
    void whenTheWholeChainFailsTheCallerGetsATypedDegradedOutcome() {
        fixture.primaryFallsBackToLight = true;
        GatewayFixture.Instance instance = fixture.instance();
        fixture.mock.scenario(Scenario.healthy().withFailingModels(GatewayFixture.PRIMARY_MODEL, GatewayFixture.LIGHT_MODEL));

        LlmOutcome outcome = instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8));

        assertThat(outcome).isInstanceOf(LlmOutcome.Degraded.class);
        assertThat(fixture.mock.counters().requests()).isEqualTo(4);
    }

    @Test
    void theClusterRetryBudgetStopsRetriesWhenSpent() {
        fixture.retryRatio = 0;
        fixture.minRetries = 0;
        GatewayFixture.Instance instance = fixture.instance();
        fixture.mock.scenario(Scenario.healthy().withErrors(1.0, 500));

        instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8));

        assertThat(fixture.mock.counters().requests()).isEqualTo(1);
    }

    @Test
    void aMalformedBodyIsUnparsable() {
        fixture.lane(Lane.INTERACTIVE).retries = 0;
        GatewayFixture.Instance instance = fixture.instance();
        fixture.mock.scenario(Scenario.healthy().withMalformed(1.0));

        LlmOutcome outcome = instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8));

        assertThat(outcome).isInstanceOfSatisfying(LlmOutcome.Degraded.class,
            degraded -> assertThat(degraded.reason()).isEqualTo(Reason.UNPARSABLE));
    }

    @Test
    void anIntentOutsideTheWhitelistIsAFailureOfTheIntentLane() {
        fixture.lane(Lane.INTENT).breakerFailures = 3;
        GatewayFixture.Instance instance = fixture.instance();
        fixture.mock.scenario(Scenario.healthy().withResponseText("{\"intent\":\"weather\",\"confidence\":0.9}"));
        LlmRequest request = GatewayFixture.ask(Lane.INTENT, "what is it?", 32).withCheck(IntentParser.check(Set.of("refund")));

        LlmOutcome outcome = instance.gateway().call(request);

        assertThat(outcome).isInstanceOfSatisfying(LlmOutcome.Degraded.class, degraded -> {
            assertThat(degraded.reason()).isEqualTo(Reason.UNPARSABLE);
            assertThat(degraded.detail()).contains("UNKNOWN_INTENT");
        });
        assertThat(fixture.mock.counters().requests()).isEqualTo(2);
    }

    @Test
    void aLocalQpsRuleRefusalIsSaturatedAndNeverRetried() {
        fixture.lane(Lane.INTERACTIVE).qps = 1;
        GatewayFixture.Instance instance = fixture.instance();

        LlmOutcome first = instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8));
        LlmOutcome second = instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8));

        assertThat(first).isInstanceOf(LlmOutcome.Answered.class);
        assertThat(second).isInstanceOfSatisfying(LlmOutcome.Saturated.class,
            saturated -> assertThat(saturated.reason()).contains("local guard"));
        assertThat(fixture.mock.counters().requests()).isEqualTo(1);
    }

    @Test
    void aHalfOpenProbeThatMeetsA429NeitherWedgesTheBreakerNorRetriesInAStorm() {
        GatewayFixture.LaneSettings intent = fixture.lane(Lane.INTENT);
        intent.breakerFailures = 1;
        intent.breakerOpenFor = Duration.ofMillis(300);
        intent.retries = 0;
        GatewayFixture.Instance instance = fixture.instance();
        fixture.mock.scenario(Scenario.healthy().withErrors(1.0, 503));
        instance.gateway().call(GatewayFixture.ask(Lane.INTENT, "hello", 8));
        fixture.mock.scenario(Scenario.healthy().withRateLimited(1.0, 0)); // Retry-After: 0
        await().atMost(Duration.ofSeconds(3))
            .until(() -> instance.governed().breakerState(Lane.INTENT) == ConsecutiveFailureBreaker.State.HALF_OPEN);
        long before = fixture.mock.counters().requests();

        assertThat(instance.gateway().call(GatewayFixture.ask(Lane.INTENT, "hello", 8))).isInstanceOf(LlmOutcome.Saturated.class);
        assertThat(fixture.mock.counters().requests() - before).as("one request, no storm").isEqualTo(1);

        fixture.mock.scenario(Scenario.healthy());
        await().atMost(Duration.ofSeconds(3)).until(() ->
            instance.gateway().call(GatewayFixture.ask(Lane.INTENT, "hello", 8)) instanceof LlmOutcome.Answered);
        assertThat(instance.governed().breakerState(Lane.INTENT)).isEqualTo(ConsecutiveFailureBreaker.State.CLOSED);
    }

    @Test
    void everyCallIsCountedPerLaneModelAndOutcomeWithLatencyTokensAndPermits() {
        fixture.primaryFallsBackToLight = true;
        GatewayFixture.Instance instance = fixture.instance();
        instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8));
        fixture.mock.scenario(Scenario.healthy().withFailingModels(GatewayFixture.PRIMARY_MODEL));
        instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8));
        var registry = instance.registry();

        assertThat(registry.get("sluice.gateway.calls").tags("lane", "interactive", "model", fixture.primary, "outcome", "ok")
            .counter().count()).isEqualTo(1);
        assertThat(registry.get("sluice.gateway.calls").tags("lane", "interactive", "model", fixture.primary, "outcome", "retried")
            .counter().count()).isEqualTo(1);
        assertThat(registry.get("sluice.gateway.calls").tags("lane", "interactive", "model", fixture.light, "outcome", "fallback_model")
            .counter().count()).isEqualTo(1);
        assertThat(registry.get("sluice.gateway.calls").tags("lane", "interactive", "model", fixture.light, "outcome", "ok")
            .counter().count()).isEqualTo(1);
        assertThat(registry.get("sluice.gateway.latency").tags("lane", "interactive").timers())
            .extracting(timer -> timer.count()).contains(1L);
        assertThat(registry.get("sluice.gateway.tokens").tags("lane", "interactive", "kind", "completion").counters())
            .isNotEmpty();
        assertThat(registry.get("sluice.gateway.permits.total").tags("lane", "interactive").gauge().value()).isEqualTo(8);
        assertThat(registry.get("sluice.gateway.permit.wait").tags("lane", "interactive").timer().count()).isEqualTo(2);
        assertThat(registry.get("sluice.gateway.inflight").tags("lane", "interactive").gauge().value()).isZero();
        assertThat(registry.get("sluice.gateway.permits.releases.pending").gauge().value())
            .as("every release reached Redis").isZero();
    }
}
