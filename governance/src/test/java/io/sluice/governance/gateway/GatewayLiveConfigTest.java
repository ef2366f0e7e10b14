package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import io.sluice.governance.gateway.GatewayLiveConfig.ProviderChange;
import io.sluice.governance.gateway.GatewayLiveConfig.RouteChange;
import io.sluice.governance.route.ModelRoutes.Target;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Providers and routes changed live on one instance reach the others through Redis (and instances that
 * start later); a change that start-up would refuse is refused whole and the previous state stays.
 */
class GatewayLiveConfigTest {

    private final ProviderFailoverTest cluster = new ProviderFailoverTest();

    @AfterEach
    void close() throws Exception {
        cluster.close();
    }

    @Test
    void aRouteChangedOnOneInstanceIsServedSoOnTheOtherAndOnALatecomer() {
        GatewayAssembly console = cluster.assembly(ProviderFailoverTest.settings());
        GatewayAssembly other = cluster.assembly(ProviderFailoverTest.settings());
        String primary = cluster.fixture.primary;

        console.liveConfig().setRoute(primary, new RouteChange(List.of(new Target("b", "gpt-x", 1)), null));

        await().atMost(Duration.ofSeconds(5)).until(() -> other.modelRoutes().targets(primary).size() == 1);
        assertThat(other.modelRoutes().targets(primary)).containsExactly(new Target("b", "gpt-x", 1));
        List<LlmOutcome> outcomes = cluster.ask(other.gateway(), 10);
        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOfSatisfying(LlmOutcome.Answered.class,
            answered -> assertThat(answered.provider()).isEqualTo("b")));
        assertThat(cluster.a.counters().requests()).isZero();

        GatewayAssembly latecomer = cluster.assembly(ProviderFailoverTest.settings());
        assertThat(latecomer.modelRoutes().targets(primary)).containsExactly(new Target("b", "gpt-x", 1));

        other.liveConfig().resetToConfigured();
        await().atMost(Duration.ofSeconds(5)).until(() -> console.modelRoutes().targets(primary).size() == 2);
    }

    @Test
    void aProviderDisabledAndRelimitedOnOneInstanceIsSoOnTheOther() {
        GatewayAssembly console = cluster.assembly(ProviderFailoverTest.settings());
        GatewayAssembly other = cluster.assembly(ProviderFailoverTest.settings());

        console.liveConfig().setProvider("a", new ProviderChange(2, 100, 50_000, 4, Duration.ofSeconds(10), 5, 0, false));

        await().atMost(Duration.ofSeconds(5)).until(() -> !other.providers().get("a").enabled());
        assertThat(other.providers().get("a").settings().rpm()).isEqualTo(100);
        assertThat(other.providers().get("a").settings().permits()).isEqualTo(2);
        assertThat(other.providers().get("a").tokens().limit()).isEqualTo(50_000);
        assertThat(other.providers().get("a").requests().limit()).isEqualTo(100);
        assertThat(other.liveConfig().provider("a").breakerFailures()).isEqualTo(4);
        assertThat(cluster.ask(other.gateway(), 10)).allSatisfy(o -> assertThat(o)
            .isInstanceOfSatisfying(LlmOutcome.Answered.class, answered -> assertThat(answered.provider()).isEqualTo("b")));
        assertThat(cluster.a.counters().requests()).as("a disabled provider gets nothing").isZero();
    }

    @Test
    void aChangeStartUpWouldRefuseIsRefusedAndThePreviousStateStays() {
        GatewayAssembly console = cluster.assembly(ProviderFailoverTest.settings());
        GatewayLiveConfig live = console.liveConfig();
        String primary = cluster.fixture.primary;
        String light = cluster.fixture.light;
        List<Target> before = console.modelRoutes().targets(primary);

        assertThatThrownBy(() -> live.setRoute(primary, new RouteChange(List.of(new Target("nowhere", "gpt-x", 1)), null)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown provider 'nowhere'");
        assertThatThrownBy(() -> live.setRoute(primary, new RouteChange(List.of(new Target("a", "gpt-x", 0)), null)))
            .hasMessageContaining("no target with a positive weight");
        live.setRoute(light, new RouteChange(List.of(new Target("b", "gpt-x", 1)), primary));
        assertThatThrownBy(() -> live.setRoute(primary, new RouteChange(before, light)))
            .hasMessageContaining("cycle");
        assertThatThrownBy(() -> live.setProvider("b", new ProviderChange(0, 0, 0, 3, Duration.ofSeconds(30), 0, 0, false)))
            .as("light would be served by no enabled provider").hasMessageContaining("no enabled target");
        assertThatThrownBy(() -> live.setProvider("a", new ProviderChange(-1, 0, 0, 3, Duration.ofSeconds(30), 0, 0, true)))
            .hasMessageContaining("must not be negative");

        assertThat(console.modelRoutes().targets(primary)).isEqualTo(before);
        assertThat(console.providers().get("b").enabled()).isTrue();
        assertThat(live.overrides().routes()).containsOnlyKeys(light);
        assertThat(live.overrides().providers()).isEmpty();
    }
}
