package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;

import io.sluice.governance.sentinel.LaneRules;
import io.sluice.governance.sentinel.SentinelRules;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Sentinel rules are replaced at runtime through one service and reach every instance via Redis. */
class SentinelRulesPropagationTest {

    private final GatewayFixture fixture = new GatewayFixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void rulesReplacedOnOneInstanceReachTheOthersAndSentinel() {
        GatewayFixture.Instance console = fixture.instance();
        GatewayFixture.Instance other = fixture.instance();
        LaneRules tighter = new LaneRules(3, 50, Duration.ofSeconds(2), 0.5, 0.3, 5, Duration.ofSeconds(10), Duration.ofSeconds(20));

        console.assembly().sentinelRules().replace(Map.of(Lane.INTERACTIVE, tighter));

        await().atMost(Duration.ofSeconds(5))
            .until(() -> tighter.equals(other.assembly().sentinelRules().current().get(Lane.INTERACTIVE)));
        assertThat(FlowRuleManager.getRules()).anySatisfy(rule -> {
            assertThat(rule.getResource()).isEqualTo(SentinelRules.resource(Lane.INTERACTIVE, fixture.primary));
            assertThat(rule.getCount()).isEqualTo(50);
        });
        GatewayFixture.Instance latecomer = fixture.instance();
        assertThat(latecomer.assembly().sentinelRules().current().get(Lane.INTERACTIVE)).isEqualTo(tighter);
    }

    @Test
    void breakerStatesShowALaneAndModelWhoseSentinelBreakerOpened() {
        GatewayFixture.Instance instance = fixture.instance();
        SentinelRules rules = instance.assembly().sentinelRules();
        // any error opens the breaker once two calls were seen; the slow-call rule is off
        rules.replace(Map.of(Lane.INTERACTIVE, new LaneRules(50, 0, Duration.ofSeconds(10), 0, 0.1, 2,
            Duration.ofSeconds(10), Duration.ofSeconds(30))));
        assertThat(rules.breakerStates().get(Lane.INTERACTIVE)).containsEntry(fixture.primary, "CLOSED");
        fixture.mock.scenario(io.sluice.mock.Scenario.healthy().withErrors(1.0, 503));

        await().atMost(Duration.ofSeconds(10)).until(() -> {
            instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8));
            return "OPEN".equals(rules.breakerStates().get(Lane.INTERACTIVE).get(fixture.primary));
        });
        assertThat(rules.breakerStates().get(Lane.INTERACTIVE)).as("a model never called")
            .containsEntry(fixture.light, "CLOSED");

        rules.replace(Map.of(Lane.INTERACTIVE, new LaneRules(50, 0, Duration.ofSeconds(10), 0, 0, 2,
            Duration.ofSeconds(10), Duration.ofSeconds(30))));
        assertThat(rules.breakerStates().get(Lane.INTERACTIVE)).as("no degrade rule").containsEntry(fixture.primary, "NONE");
    }

    @Test
    void anInvalidRuleIsRefusedWithAReason() {
        assertThatThrownBy(() -> new LaneRules(0, 0, null, 0.5, 0.5, 5, null, null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxThreads");
        assertThatThrownBy(() -> new LaneRules(1, 0, null, 1.5, 0.5, 5, null, null))
            .hasMessageContaining("slowRatio");
    }
}
