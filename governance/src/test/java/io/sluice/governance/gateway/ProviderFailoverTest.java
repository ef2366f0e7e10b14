package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.provider.OpenAiCompatibleClient;
import io.sluice.governance.provider.ProviderEndpoint;
import io.sluice.governance.provider.ProviderKind;
import io.sluice.governance.provider.ProviderPool;
import io.sluice.governance.provider.ProviderSettings;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * Failover between two mock providers serving one route (targets a and b): a down, a rate-limited
 * with Retry-After, a slow, a low on its announced remaining requests. Real Redis, real HTTP.
 */
class ProviderFailoverTest {

    final GatewayFixture fixture = new GatewayFixture();
    final MockProvider a = MockProvider.start(0);
    final MockProvider b = MockProvider.start(0);
    final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        a.close();
        b.close();
        fixture.close();
    }

    LlmGateway gateway(ProviderSettings aSettings) {
        return assembly(aSettings).gateway();
    }

    /** One gateway instance over a and b; every call makes another instance of the same cluster (same Redis prefix). */
    GatewayAssembly assembly(ProviderSettings aSettings) {
        GatewayProperties base = fixture.properties(a.baseUrl());
        Map<String, GatewayProperties.Model> models = new LinkedHashMap<>();
        models.put(fixture.primary, new GatewayProperties.Model("gpt-x", null, List.of(
            new GatewayProperties.Target("a", "gpt-x", 1), new GatewayProperties.Target("b", "gpt-x", 1)), List.of("gpt-x")));
        models.put(fixture.light, new GatewayProperties.Model("gpt-x", null,
            List.of(new GatewayProperties.Target("b", "gpt-x", 1)), List.of()));
        GatewayProperties properties = new GatewayProperties(base.baseUrl(), null, base.keyPrefix(), models, base.lanes(),
            base.tpm(), base.retryBudget(), base.redisRecheck(), base.heartbeat());
        RedissonClient redisson = GatewayFixture.redisson(GatewayFixture.redisUrl());
        closeables.add(() -> redisson.shutdown());
        ProviderSettings plain = new ProviderSettings(0, 0, 0, null, null, 3, Duration.ofSeconds(30), 0, 0);
        java.util.Map<String, io.sluice.governance.permit.PermitProperties.Lane> lanes =
            new java.util.LinkedHashMap<>(fixture.permitProperties().lanes());
        lanes.put("embedding", new io.sluice.governance.permit.PermitProperties.Lane(4, Duration.ofSeconds(1),
            Duration.ofSeconds(30)));
        io.sluice.governance.permit.PermitProperties withEmbedding = new io.sluice.governance.permit.PermitProperties(
            fixture.permitProperties().keyPrefix(), lanes);
        GatewayAssembly assembly = GatewayAssembly.assemble(properties, withEmbedding, redisson,
            new SimpleMeterRegistry(), List.of(
                new ProviderPool.Spec(endpoint("a", a), new OpenAiCompatibleClient(endpoint("a", a)), aSettings),
                new ProviderPool.Spec(endpoint("b", b), new OpenAiCompatibleClient(endpoint("b", b)), plain)));
        closeables.add(0, assembly);
        assembly.withEmbeddings(fixture.primary, Duration.ofSeconds(3), withEmbedding);
        return assembly;
    }

    static ProviderEndpoint endpoint(String name, MockProvider mock) {
        return new ProviderEndpoint(name, ProviderKind.OPENAI_COMPATIBLE, mock.baseUrl(), "key-" + name, null);
    }

    static ProviderSettings settings() {
        return new ProviderSettings(0, 0, 0, null, null, 3, Duration.ofSeconds(30), 0, 0);
    }

    List<LlmOutcome> ask(LlmGateway gateway, int calls) {
        List<LlmOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            outcomes.add(gateway.call(GatewayFixture.ask(Lane.INTERACTIVE, "question " + i, 16)));
        }
        return outcomes;
    }

    @Test
    void providerADownEveryCallIsAnsweredByB() {
        LlmGateway gateway = gateway(settings());
        a.scenario(Scenario.healthy().withErrors(1.0, 503));

        List<LlmOutcome> outcomes = ask(gateway, 20);

        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOfSatisfying(LlmOutcome.Answered.class,
            answered -> assertThat(answered.provider()).isEqualTo("b")));
        assertThat(b.counters().served()).isEqualTo(20);
        assertThat(a.counters().requests()).as("a's breaker opened after 3 consecutive failures").isLessThanOrEqualTo(3 * 2);
    }

    @Test
    void providerARateLimitedGetsNothingUntilItsRetryAfterAndNoCallIsLost() {
        LlmGateway gateway = gateway(settings());
        a.scenario(Scenario.healthy().withRateLimited(1.0, 30));

        List<LlmOutcome> outcomes = ask(gateway, 20);

        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOf(LlmOutcome.Answered.class));
        assertThat(a.counters().requests()).as("one 429, then the shared cool-down of 30 s keeps a out").isEqualTo(1);
        assertThat(b.counters().served()).isEqualTo(20);
    }

    @Test
    void aSlowProviderLeavesTimeToFailOverWithinTheBudget() {
        fixture.lane(Lane.INTERACTIVE).budget = Duration.ofSeconds(2);
        fixture.lane(Lane.INTERACTIVE).retries = 0;
        LlmGateway gateway = gateway(settings());
        a.scenario(Scenario.healthy().withFixedLatency(5_000));

        List<LlmOutcome> outcomes = ask(gateway, 4);

        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOfSatisfying(LlmOutcome.Answered.class,
            answered -> assertThat(answered.provider()).isEqualTo("b")));
    }

    @Test
    void remainingRequestsBelowTheThresholdShiftTrafficBeforeAny429() {
        LlmGateway gateway = gateway(new ProviderSettings(0, 0, 0, null, null, 3, Duration.ofSeconds(30), 10, 0));
        a.remainingRequests(5); // a says: 5 requests left in this window (threshold 10)
        b.remainingRequests(1000);

        List<LlmOutcome> outcomes = ask(gateway, 30);

        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOf(LlmOutcome.Answered.class));
        assertThat(a.counters().rejected()).isZero();
        assertThat(a.counters().requests()).as("after a's first low answer, it is tried after b (reset 5 s)")
            .isLessThanOrEqualTo(2);
        assertThat(b.counters().served()).isGreaterThanOrEqualTo(28);
    }

    @Test
    void embeddingsFailOverToo() {
        LlmGateway gateway = gateway(settings());
        a.scenario(Scenario.healthy().withErrors(1.0, 500));

        for (int i = 0; i < 5; i++) {
            EmbeddingOutcome outcome = gateway.embed(new EmbeddingRequest(null, List.of("退款多久到账", "where is my order"),
                null));
            assertThat(outcome).isInstanceOfSatisfying(EmbeddingOutcome.Embedded.class, e -> {
                assertThat(e.provider()).isEqualTo("b");
                assertThat(e.vectors()).hasSize(2).allSatisfy(v -> assertThat(v).hasSize(8));
                assertThat(e.promptTokens()).isPositive();
            });
        }
        assertThat(b.lastRequest().path("input").size()).isEqualTo(2);
    }

    @Test
    void everyGenerationParameterReachesTheProviderAndTheFinishReasonComesBack() {
        LlmGateway gateway = gateway(settings());
        a.scenario(Scenario.healthy().withErrors(1.0, 500)); // so the call lands on b, whose request we read
        tools.jackson.databind.ObjectMapper json = tools.jackson.databind.json.JsonMapper.builder().build();
        Map<String, tools.jackson.databind.JsonNode> values = new LinkedHashMap<>();
        values.put("temperature", json.getNodeFactory().numberNode(0.3));
        values.put("seed", json.getNodeFactory().numberNode(7));
        values.put("response_format", json.readTree("{\"type\":\"json_object\"}"));
        values.put("tools", json.readTree("[{\"type\":\"function\",\"function\":{\"name\":\"lookup_order\",\"parameters\":{}}}]"));
        LlmRequest request = new LlmRequest(Lane.INTERACTIVE, fixture.light, List.of(LlmMessage.user("where is my order?")),
            16, null, ResponseCheck.ANY, new LlmParameters(values));

        LlmOutcome outcome = gateway.call(request);

        assertThat(outcome).isInstanceOfSatisfying(LlmOutcome.Answered.class, answered -> {
            assertThat(answered.finishReason()).isEqualTo("tool_calls");
            assertThat(answered.choices().get(0).toolCalls().path(0).path("function").path("name").asString())
                .isEqualTo("lookup_order");
        });
        assertThat(b.lastRequest().path("temperature").asDouble()).isEqualTo(0.3);
        assertThat(b.lastRequest().path("seed").asInt()).isEqualTo(7);
        assertThat(b.lastRequest().path("response_format").path("type").asString()).isEqualTo("json_object");
        assertThat(b.lastRequest().path("tools").path(0).path("function").path("name").asString()).isEqualTo("lookup_order");
    }

    /** One stream's end: its text and outcome, and how many tokens reached the client. */
    record Streamed(LlmOutcome outcome, String text) {
    }

    static Streamed stream(LlmGateway gateway, String question) throws Exception {
        java.util.concurrent.CompletableFuture<LlmOutcome> end = new java.util.concurrent.CompletableFuture<>();
        StringBuilder text = new StringBuilder();
        gateway.stream(GatewayFixture.ask(Lane.INTERACTIVE, question, 16), new LlmStreamListener() {
            @Override
            public void onToken(String token) {
                synchronized (text) {
                    text.append(token);
                }
            }

            @Override
            public void onComplete(LlmOutcome.Answered answered) {
                end.complete(answered);
            }

            @Override
            public void onEnd(LlmOutcome outcome) {
                end.complete(outcome);
            }
        });
        LlmOutcome outcome = end.get(20, java.util.concurrent.TimeUnit.SECONDS);
        synchronized (text) {
            return new Streamed(outcome, text.toString());
        }
    }

    @Test
    void aStreamWhoseFirstTargetFailsBeforeTheFirstByteIsServedByTheNext() throws Exception {
        GatewayAssembly assembly = assembly(settings());
        // a first on every call (b a standby), so each stream starts at a
        assembly.liveConfig().setRoute(fixture.primary, new GatewayLiveConfig.RouteChange(List.of(
            new io.sluice.governance.route.ModelRoutes.Target("a", "gpt-x", 1),
            new io.sluice.governance.route.ModelRoutes.Target("b", "gpt-x", 0)), null));
        a.scenario(Scenario.healthy().withErrors(1.0, 503));

        Streamed first = stream(assembly.gateway(), "where is my order");

        assertThat(first.outcome()).isInstanceOfSatisfying(LlmOutcome.Answered.class,
            answered -> assertThat(answered.provider()).isEqualTo("b"));
        assertThat(first.text()).isNotEmpty().isEqualTo(((LlmOutcome.Answered) first.outcome()).text());
        assertThat(a.counters().requests()).as("a was tried first").isEqualTo(1);

        a.scenario(Scenario.healthy().withRateLimited(1.0, 30));
        GatewayAssembly fresh = assembly(settings()); // a's breaker closed again (one failure so far)
        Streamed limited = stream(fresh.gateway(), "refund please");
        assertThat(limited.outcome()).as("a 429 before the first byte fails over too")
            .isInstanceOfSatisfying(LlmOutcome.Answered.class, answered -> assertThat(answered.provider()).isEqualTo("b"));
        assertThat(a.counters().rejected()).isEqualTo(1);
        assertThat(b.counters().served()).isEqualTo(2);
        // a permit's release reaches Redis asynchronously
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> permitsInUse(fresh) == 0);
    }

    @Test
    void aStreamWhoseEveryTargetFailsBeforeTheFirstByteEndsWithTheFailureAndGivesItsPermitBack() throws Exception {
        GatewayAssembly assembly = assembly(settings());
        a.scenario(Scenario.healthy().withErrors(1.0, 503));
        b.scenario(Scenario.healthy().withErrors(1.0, 502));

        Streamed streamed = stream(assembly.gateway(), "where is my order");

        assertThat(streamed.outcome()).isInstanceOf(LlmOutcome.Degraded.class);
        assertThat(streamed.text()).isEmpty();
        assertThat(a.counters().requests() + b.counters().requests()).as("each target of the chain tried once").isGreaterThanOrEqualTo(2);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> permitsInUse(assembly) == 0);
    }

    static int permitsInUse(GatewayAssembly assembly) {
        return assembly.permits().inUse(Lane.INTERACTIVE.key());
    }
}
