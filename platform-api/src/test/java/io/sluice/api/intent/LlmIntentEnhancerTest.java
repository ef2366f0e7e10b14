package io.sluice.api.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.auth.ApiClient;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.chat.AnswerStream;
import io.sluice.api.chat.ChatContext;
import io.sluice.api.chat.ChatRequest;
import io.sluice.api.chat.IntentStep;
import io.sluice.governance.breaker.ConsecutiveFailureBreaker;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.GatewayProperties;
import io.sluice.governance.gateway.GovernedLlmGateway;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.permit.PermitProperties;
import io.sluice.governance.provider.OpenAiCompatibleClient;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The LLM intent enhancer through the real governed gateway (Redis permits, the intent lane's budget,
 * retry and breaker as in application.yml) against the mock provider.
 */
class LlmIntentEnhancerTest {

    static final Duration INTENT_BUDGET = Duration.ofMillis(1500);
    static final String VAGUE = "东西到了但是和图片不一样";   // the rules are unsure (general, 0.3)

    static MockProvider mock;
    static RedissonClient redisson;

    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    GatewayAssembly assembly;
    GovernedLlmGateway gateway;

    @BeforeAll
    static void start() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: run `eval \"$(scripts/services-up.sh)\"` first");
        }
        Config config = new Config();
        config.useSingleServer().setAddress(url).setTimeout(1000).setRetryAttempts(0);
        redisson = Redisson.create(config);
        mock = MockProvider.start(0);
        // the first call through Spring AI loads thousands of classes; not inside a 1.5 s budget
        try (OpenAiCompatibleClient warm = OpenAiCompatibleClient.of(mock.baseUrl(), "warm-up")) {
            warm.call(new io.sluice.governance.provider.ProviderClient.Call("warm-up", List.of(LlmMessage.user("warm up")), 4, null), Duration.ofSeconds(60));
        }
    }

    @AfterAll
    static void stop() {
        mock.close();
        redisson.shutdown();
    }

    /** A fresh gateway per test (its own breaker, keys and Sentinel resources), intent lane as configured. */
    @BeforeEach
    void gateway() {
        mock.scenario(Scenario.healthy());
        mock.reset();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String light = "light-" + suffix;
        Map<String, GatewayProperties.Model> models = new LinkedHashMap<>();
        models.put(light, new GatewayProperties.Model("gpt-light", null));
        GatewayProperties.Sentinel sentinel = new GatewayProperties.Sentinel(64, 0, Duration.ofSeconds(30), 0.5, 0.5, 1000,
            Duration.ofSeconds(10), Duration.ofSeconds(30));
        Map<String, GatewayProperties.LaneConfig> lanes = new LinkedHashMap<>();
        Map<String, PermitProperties.Lane> permits = new LinkedHashMap<>();
        for (Lane lane : Lane.values()) {
            boolean intent = lane == Lane.INTENT;
            lanes.put(lane.key(), new GatewayProperties.LaneConfig(light, intent ? INTENT_BUDGET : Duration.ofSeconds(10), 1,
                List.of(), Duration.ZERO, intent ? new GatewayProperties.Breaker(3, Duration.ofSeconds(60)) : null, sentinel));
            permits.put(lane.key(), new PermitProperties.Lane(4, Duration.ofMillis(50), Duration.ofSeconds(30)));
        }
        String prefix = "test:intent:" + suffix + ":";
        GatewayProperties properties = new GatewayProperties(mock.baseUrl(), "test-key", prefix, models, lanes,
            new GatewayProperties.Tpm(0, Duration.ofMinutes(1)), new GatewayProperties.RetryBudget(1.0, 1000,
                Duration.ofSeconds(10)), Duration.ofMillis(500), Duration.ofMillis(200));
        assembly = GatewayAssembly.assemble(properties, new PermitProperties(prefix + "permits:", permits), redisson,
            meters, OpenAiCompatibleClient.of(mock.baseUrl(), "test-key"));
        gateway = (GovernedLlmGateway) assembly.gateway();
    }

    @AfterEach
    void close() {
        assembly.close();
    }

    LlmIntentEnhancer enhancer() {
        return new LlmIntentEnhancer(gateway, Set.of(IntentPath.CHAT), 64, () -> true, meters);
    }

    static IntentResult unsure() {
        return new IntentResult(Intent.GENERAL, 0.3, "rules", List.of());
    }

    double outcomes(String outcome) {
        var counter = meters.find("sluice.chat.intent.llm").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aWhitelistedIntentInGoodJsonIsUsed() {
        mock.scenario(Scenario.healthy().withResponseText("{\"intent\": \"order_problem\", \"confidence\": 0.9}"));

        IntentResult result = enhancer().refine(VAGUE, unsure()).orElseThrow();

        assertThat(result.intent()).isEqualTo(Intent.ORDER_PROBLEM);
        assertThat(result.priority()).isEqualTo(Priority.A);
        assertThat(result.confidence()).isEqualTo(0.9);
        assertThat(result.source()).isEqualTo("llm");
        assertThat(result.evidence()).containsExactly("gpt-light");
        assertThat(mock.counters().served()).isEqualTo(1);
    }

    @Test
    void withTheOperatorsTaxonomyThePromptListsItAndTheAnswerTakesItsClass() {
        mock.scenario(Scenario.healthy().withResponseText("{\"intent\": \"card_lost_stolen\", \"confidence\": 0.8}"));
        List<LlmIntentEnhancer.Listed> taxonomy = List.of(
            new LlmIntentEnhancer.Listed("card_lost_stolen", Priority.S, "the card is lost or was stolen"),
            new LlmIntentEnhancer.Listed("exchange_rate", Priority.B, "asks about exchange rates"));
        LlmIntentEnhancer operators = new LlmIntentEnhancer(gateway, Set.of(IntentPath.CHAT), 64, () -> true, meters,
            () -> io.sluice.governance.gateway.LlmParameters.NONE, () -> taxonomy);

        IntentResult result = operators.refine("I think someone took my card", unsure()).orElseThrow();

        assertThat(result.code()).isEqualTo("card_lost_stolen");
        assertThat(result.priority()).isEqualTo(Priority.S);
        assertThat(result.source()).isEqualTo("llm");
        String system = mock.lastRequest().get("messages").get(0).get("content").asString();
        assertThat(system).contains("card_lost_stolen (S): the card is lost or was stolen")
            .contains("exchange_rate (B): asks about exchange rates").doesNotContain("promotion");
        // a sample intent is no longer an answer the operator's taxonomy accepts
        mock.scenario(Scenario.healthy().withResponseText("{\"intent\": \"order_problem\", \"confidence\": 0.9}"));
        assertThat(operators.refine("I think someone took my card", unsure())).isEmpty();
    }

    @Test
    void jsonInAFenceWithProseAroundItIsRead() {
        mock.scenario(Scenario.healthy().withResponseText(
            "Sure! Here is the classification:\n```json\n{\"intent\": \"Refund\", \"confidence\": \"0.8\"}\n```\nHope it helps."));

        IntentResult result = enhancer().refine("钱什么时候回来", unsure()).orElseThrow();

        assertThat(result.intent()).isEqualTo(Intent.REFUND);
        assertThat(result.confidence()).isEqualTo(0.8);
    }

    @Test
    void garbageOrAnUnknownIntentIsNoOpinionSoTheRulesStand() {
        LlmIntentEnhancer enhancer = enhancer();

        mock.scenario(Scenario.healthy().withResponseText("I think the customer is unhappy."));
        Optional<IntentResult> garbage = enhancer.refine(VAGUE, unsure());
        mock.scenario(Scenario.healthy().withResponseText("{\"intent\": \"weather\", \"confidence\": 0.99}"));
        Optional<IntentResult> unknown = enhancer.refine(VAGUE, unsure());

        assertThat(garbage).isEmpty();
        assertThat(unknown).isEmpty();
        assertThat(outcomes("unparsable")).isEqualTo(2);
        // the step keeps the rules' answer
        IntentStep step = new IntentStep(new RuleIntentClassifier(), List.of(enhancer), 0.7);
        ChatContext ctx = context(VAGUE, false);
        step.apply(ctx, c -> { });
        assertThat(ctx.intent().source()).isEqualTo("rules");
    }

    @Test
    void aHungProviderCostsAtMostTheIntentBudgetThenTheOpenBreakerAnswersAtOnce() {
        mock.scenario(Scenario.healthy().withHang(true));
        LlmIntentEnhancer enhancer = enhancer();
        IntentStep step = new IntentStep(new RuleIntentClassifier(), List.of(enhancer), 0.7, new IntentMetrics(meters));

        List<Long> hungMs = new ArrayList<>();
        for (int i = 0; i < 3 && gateway.breakerState(Lane.INTENT) != ConsecutiveFailureBreaker.State.OPEN; i++) {
            ChatContext ctx = context(VAGUE, false);
            long started = System.nanoTime();
            step.apply(ctx, c -> { });
            hungMs.add((System.nanoTime() - started) / 1_000_000);
            assertThat(ctx.intent().source()).isEqualTo("rules");   // the chat goes on with the rules' intent
        }
        assertThat(gateway.breakerState(Lane.INTENT)).isEqualTo(ConsecutiveFailureBreaker.State.OPEN);
        long providerCalls = mock.counters().requests();

        List<Double> openMs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            long started = System.nanoTime();
            Optional<IntentResult> result = enhancer.refine(VAGUE, unsure());
            openMs.add((System.nanoTime() - started) / 1e6);
            assertThat(result).isEmpty();
        }
        System.out.printf("intent LLM, provider hung: calls %s ms (budget %d ms); breaker open: %s ms%n", hungMs,
            INTENT_BUDGET.toMillis(), openMs);

        assertThat(hungMs).isNotEmpty().allSatisfy(ms -> assertThat(ms).isLessThan(INTENT_BUDGET.toMillis() + 700));
        assertThat(outcomes("timeout")).isPositive();
        assertThat(outcomes("breaker_open")).isEqualTo(5);
        assertThat(mock.counters().requests()).isEqualTo(providerCalls);   // an open breaker calls nobody
        assertThat(openMs.stream().sorted().toList().get(2)).as("median ms with the breaker open").isLessThan(5.0);
    }

    @Test
    void itIsAskedOnlyOnTheEnabledPathsAndWhileTheLevelSparesTheLlm() {
        mock.scenario(Scenario.healthy().withResponseText("{\"intent\": \"order_problem\", \"confidence\": 0.9}"));
        IntentStep defaults = new IntentStep(new RuleIntentClassifier(), List.of(enhancer()), 0.7);
        LlmIntentEnhancer underPressure = new LlmIntentEnhancer(gateway, Set.of(IntentPath.CHAT), 64, () -> false, meters);

        ChatContext stream = context(VAGUE, true);
        defaults.apply(stream, c -> { });
        ChatContext shed = context(VAGUE, false);
        new IntentStep(new RuleIntentClassifier(), List.of(underPressure), 0.7).apply(shed, c -> { });
        long callsBefore = mock.counters().requests();
        ChatContext chat = context(VAGUE, false);
        defaults.apply(chat, c -> { });

        assertThat(enhancer().enabledFor(IntentPath.STREAM)).isFalse();
        assertThat(enhancer().enabledFor(IntentPath.OPENAI)).isFalse();
        assertThat(stream.intent().source()).isEqualTo("rules");
        assertThat(shed.intent().source()).isEqualTo("rules");
        assertThat(callsBefore).isZero();
        assertThat(outcomes("level")).isEqualTo(1);
        assertThat(chat.intent().source()).isEqualTo("llm");
        assertThat(chat.priority()).isEqualTo(Priority.A);
        assertThat(mock.counters().requests()).isEqualTo(1);
    }

    @Test
    void withoutAProviderItHasNoOpinionAndCallsNothing() {
        var disabled = new LlmIntentEnhancer(new io.sluice.governance.gateway.DisabledLlmGateway(), Set.of(IntentPath.CHAT),
            64, () -> true, meters);

        assertThat(disabled.refine(VAGUE, unsure())).isEmpty();
        assertThat(outcomes("no_provider")).isEqualTo(1);
    }

    static ChatContext context(String message, boolean streaming) {
        ChatContext ctx = new ChatContext(new ApiClient(1, "test", "sk-sluice-test", ClientTier.STANDARD),
            new ChatRequest("u1", null, message));
        if (streaming) {
            ctx.stream(new AnswerStream() {
                @Override
                public void begin(ChatContext c, io.sluice.governance.tier.FidelityTier tier,
                        List<io.sluice.api.chat.ChatResponse.Source> sources) {
                }

                @Override
                public void token(String text) {
                }

                @Override
                public boolean begun() {
                    return false;
                }
            });
        }
        return ctx;
    }
}
