package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.governance.gateway.LlmOutcome.Reason;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitConfiguration;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;

/** The Spring wiring: the embedded default has no provider; a bad route fails start-up, naming it. */
class GatewayStartupTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withUserConfiguration(GatewayConfiguration.class, PermitConfiguration.class)
        .withBean(RedissonClient.class, () -> GatewayFixture.redisson(GatewayFixture.redisUrl()), bean -> bean.setDestroyMethodName("shutdown"))
        .withPropertyValues(
            "sluice.permits.key-prefix=test:startup:permits:",
            "sluice.permits.lanes.interactive.permits=8", "sluice.permits.lanes.interactive.max-wait=200ms", "sluice.permits.lanes.interactive.lease=30s",
            "sluice.permits.lanes.intent.permits=4", "sluice.permits.lanes.intent.max-wait=50ms", "sluice.permits.lanes.intent.lease=10s",
            "sluice.permits.lanes.batch.permits=4", "sluice.permits.lanes.batch.max-wait=30s", "sluice.permits.lanes.batch.lease=120s",
            "sluice.gateway.key-prefix=test:startup:gw:", "sluice.gateway.redis-recheck=2s", "sluice.gateway.heartbeat=2s",
            "sluice.gateway.models.A.name=model-a", "sluice.gateway.models.A.fallback=B",
            "sluice.gateway.models.B.name=model-b",
            "sluice.gateway.tpm.limit=0", "sluice.gateway.tpm.window=1m",
            "sluice.gateway.retry-budget.ratio=0.1", "sluice.gateway.retry-budget.min-retries=3", "sluice.gateway.retry-budget.window=10s",
            "sluice.gateway.lanes.interactive.route=A", "sluice.gateway.lanes.interactive.budget=6s", "sluice.gateway.lanes.interactive.retries=1",
            "sluice.gateway.lanes.interactive.sentinel.max-threads=8", "sluice.gateway.lanes.interactive.sentinel.min-requests=10",
            "sluice.gateway.lanes.intent.route=B", "sluice.gateway.lanes.intent.budget=1500ms", "sluice.gateway.lanes.intent.retries=1",
            "sluice.gateway.lanes.intent.breaker.failures=3", "sluice.gateway.lanes.intent.breaker.open-for=60s",
            "sluice.gateway.lanes.intent.sentinel.max-threads=4", "sluice.gateway.lanes.intent.sentinel.min-requests=10",
            "sluice.gateway.lanes.batch.route=A", "sluice.gateway.lanes.batch.budget=60s", "sluice.gateway.lanes.batch.retries=3",
            "sluice.gateway.lanes.batch.backoff=100ms,300ms,900ms",
            "sluice.gateway.lanes.batch.sentinel.max-threads=4", "sluice.gateway.lanes.batch.sentinel.min-requests=10");

    @Test
    void withNoProviderConfiguredTheGatewayDegradesAtOnce() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            LlmGateway gateway = context.getBean(LlmGateway.class);
            assertThat(gateway.available()).isFalse();
            assertThat(gateway.call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8)))
                .isInstanceOfSatisfying(LlmOutcome.Degraded.class, d -> assertThat(d.reason()).isEqualTo(Reason.NOT_CONFIGURED));
            assertThat(context).hasSingleBean(ClusterPermits.class);
        });
    }

    @Test
    void withAProviderConfiguredTheGatewayIsGoverned() {
        runner.withPropertyValues("sluice.gateway.base-url=http://127.0.0.1:9/v1").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(LlmGateway.class)).isInstanceOf(GovernedLlmGateway.class);
        });
    }

    @Test
    void aFallbackCycleAToBToAIsRefusedAtStartUpNamingTheCycle() {
        runner.withPropertyValues("sluice.gateway.models.B.fallback=A").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("cycle: A → B → A");
        });
    }

    @Test
    void aLaneRoutedToAnUnknownModelIsRefusedAtStartUp() {
        runner.withPropertyValues("sluice.gateway.lanes.batch.route=Z").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("lane 'batch' routes to unknown model 'Z'");
        });
    }

    @Test
    void theShippedDefaultsInApplicationYmlBindValidateAndGiveTheEmbeddedDisabledGateway() throws IOException {
        // the app module's application.yml, as the executable ships it (tests run in governance/)
        List<PropertySource<?>> shipped = new YamlPropertySourceLoader().load("shipped application.yml",
            new FileSystemResource("../app/src/main/resources/application.yml"));
        String prefix = "test:defaults:" + UUID.randomUUID() + ":";

        new ApplicationContextRunner()
            .withUserConfiguration(GatewayConfiguration.class, PermitConfiguration.class)
            .withBean(RedissonClient.class, () -> GatewayFixture.redisson(GatewayFixture.redisUrl()), bean -> bean.setDestroyMethodName("shutdown"))
            .withInitializer(context -> shipped.forEach(context.getEnvironment().getPropertySources()::addLast))
            .withPropertyValues("sluice.gateway.key-prefix=" + prefix, "sluice.permits.key-prefix=" + prefix + "permits:")
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(LlmGateway.class).available()).isFalse();
                GatewayProperties properties = context.getBean(GatewayProperties.class);
                assertThat(properties.lane(Lane.BATCH).backoff())
                    .containsExactly(Duration.ofMillis(100), Duration.ofMillis(300), Duration.ofMillis(900));
                assertThat(properties.lane(Lane.INTENT).breaker().failures()).isEqualTo(3);
                assertThat(GatewayAssembly.routes(properties).chain("primary")).containsExactly("primary", "light");
            });
    }
}
