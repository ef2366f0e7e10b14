package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.allocation.AllocationProperties;
import io.sluice.governance.allocation.TokenAllocation;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * Acceptance: token allocation by request type against the real Redis and the mock provider. A summary
 * flood takes more than its share, after which a chat answer still gets tokens and further summaries
 * step down to the light route or are refused; the budget follows the provider's
 * {@code x-ratelimit-limit-tokens}; share and reserve change live on every instance.
 */
class TokenAllocationAcceptanceTest {

    /** 400 characters: the gateway estimates 100 + 4 prompt tokens, the mock counts 100. */
    private static final String PROMPT = "x".repeat(400);

    private final GatewayFixture fixture = new GatewayFixture();
    private final List<RedissonClient> clients = new java.util.ArrayList<>();

    @AfterEach
    void close() {
        clients.forEach(c -> c.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS));
        fixture.close();
    }

    private AllocationProperties properties(long limit) {
        return new AllocationProperties(true, limit, 200_000, Duration.ofMinutes(1), 12, 0.6, 0.3,
            List.of("chat_answer", "intent", "front_door"), fixture.light, 256, fixture.keyPrefix + "alloc:",
            Duration.ofMillis(500));
    }

    private TokenAllocation attach(GatewayFixture.Instance instance, AllocationProperties properties,
            SimpleMeterRegistry registry) {
        RedissonClient redisson = GatewayFixture.redisson(fixture.redisUrl);
        clients.add(redisson);
        TokenAllocation allocation = new TokenAllocation(redisson, properties, () -> 1, () -> 0, registry);
        instance.governed().useAllocation(allocation);
        return allocation;
    }

    private static LlmRequest summary() {
        return new LlmRequest(Lane.BATCH, null, List.of(LlmMessage.user(PROMPT)), 400, null, null, null, RequestType.SUMMARY);
    }

    private static LlmRequest chatAnswer() {
        return new LlmRequest(Lane.INTERACTIVE, null, List.of(LlmMessage.user("Where is my parcel?")), 50, null, null, null,
            RequestType.CHAT_ANSWER);
    }

    @Test
    void aSummaryFloodTakesMostOfTheBudgetButAChatAnswerStillGetsTokensAndFurtherSummariesStepDownOrAreRefused() {
        fixture.mock.scenario(Scenario.healthy().withCompletionTokens(200));
        GatewayFixture.Instance instance = fixture.instance();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TokenAllocation allocation = attach(instance, properties(10_000), registry);

        int answered = 0;
        int steppedDown = 0;
        LlmOutcome last = null;
        for (int i = 0; i < 100; i++) {     // ~300 tokens each: the budget of 10 000 is gone long before 100
            last = instance.gateway().call(summary());
            if (!(last instanceof LlmOutcome.Answered a)) {
                break;
            }
            answered++;
            if (GatewayFixture.LIGHT_MODEL.equals(a.model())) {
                steppedDown++;
                assertThat(a.fallbackModel()).as("a stepped-down answer says it came from another route").isTrue();
            }
        }

        assertThat(last).as("the flood ends with a refusal, not a failure").isInstanceOf(LlmOutcome.Saturated.class);
        assertThat(((LlmOutcome.Saturated) last).reason()).contains("token allocation").contains("summary");
        assertThat(((LlmOutcome.Saturated) last).retryAfter()).isPositive();
        assertThat(answered).isGreaterThan(10);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            TokenAllocation.Snapshot window = allocation.read();
            assertThat(window.share(RequestType.SUMMARY)).isGreaterThan(0.6);
            assertThat(window.dominant()).isEqualTo(RequestType.SUMMARY);
            assertThat(window.reserveActive()).isTrue();
        });
        long served = fixture.mock.counters().served();

        LlmOutcome chat = instance.gateway().call(chatAnswer());

        assertThat(chat).as("the interactive reserve answers the chat").isInstanceOf(LlmOutcome.Answered.class);
        assertThat(((LlmOutcome.Answered) chat).model()).isEqualTo(GatewayFixture.PRIMARY_MODEL);
        assertThat(fixture.mock.counters().served()).isEqualTo(served + 1);
        LlmOutcome further = instance.gateway().call(summary());
        assertThat(further instanceof LlmOutcome.Saturated
            || further instanceof LlmOutcome.Answered a && GatewayFixture.LIGHT_MODEL.equals(a.model()))
            .as("a further summary is refused or stepped down: %s", further).isTrue();
        assertThat(registry.get("sluice.gateway.allocation.decisions").tag("type", "summary").tag("outcome", "refused")
            .counter().count()).isPositive();
        assertThat(registry.get("sluice.gateway.allocation.decisions").tag("type", "summary").tag("outcome", "stepped_down")
            .counter().count()).isEqualTo(steppedDown + (further instanceof LlmOutcome.Answered ? 1 : 0));
        assertThat(registry.get("sluice.gateway.allocation.tokens").tag("type", "summary").counter().count())
            .isGreaterThan(answered * 100.0);
        assertThat(registry.get("sluice.gateway.allocation.tokens").tag("type", "chat_answer").counter().count()).isPositive();
    }

    @Test
    void withoutAConfiguredLimitTheBudgetFollowsTheProvidersRateLimitHeader() {
        fixture.mock.scenario(Scenario.healthy().withTpmCap(48_000, 60_000));
        GatewayFixture.Instance instance = fixture.instance();
        TokenAllocation allocation = attach(instance, properties(0), new SimpleMeterRegistry());
        assertThat(allocation.limit()).as("no header yet: the fallback").isEqualTo(200_000);
        assertThat(allocation.read().limitSource()).isEqualTo("fallback-limit");

        assertThat(instance.gateway().call(chatAnswer())).isInstanceOf(LlmOutcome.Answered.class);

        assertThat(allocation.limit()).isEqualTo(48_000);
        assertThat(allocation.read().limitSource()).isEqualTo("provider x-ratelimit-limit-tokens");
    }

    @Test
    void shareAndReserveChangeLiveOnEveryInstanceAndBadValuesChangeNothing() {
        GatewayFixture.Instance a = fixture.instance();
        GatewayFixture.Instance b = fixture.instance();
        TokenAllocation first = attach(a, properties(10_000), new SimpleMeterRegistry());
        TokenAllocation second = attach(b, properties(10_000), new SimpleMeterRegistry());

        assertThat(first.replace(new TokenAllocation.Settings(0.5, 0.4))).isTrue();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(second.settings()).isEqualTo(new TokenAllocation.Settings(0.5, 0.4)));
        assertThatThrownBy(() -> new TokenAllocation.Settings(1.5, 0.3)).hasMessageContaining("share");
        assertThatThrownBy(() -> new TokenAllocation.Settings(0.6, 0.95)).hasMessageContaining("reserve");
        assertThat(second.settings().share()).isEqualTo(0.5);

        first.resetToConfigured();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(second.settings()).isEqualTo(new TokenAllocation.Settings(0.6, 0.3)));
    }

    @Test
    void withoutADominantTypeBatchWorkMayUseTheWholeBudgetAndInteractiveCallsAreNeverHeldBackByTheReserve() {
        fixture.mock.scenario(Scenario.healthy().withCompletionTokens(200));
        GatewayFixture.Instance instance = fixture.instance();
        TokenAllocation allocation = attach(instance, properties(10_000), new SimpleMeterRegistry());

        // chat answers alone: interactive, so the reserve never holds them back until the budget is spent
        int chats = 0;
        LlmOutcome last;
        do {
            last = instance.gateway().call(new LlmRequest(Lane.INTERACTIVE, null, List.of(LlmMessage.user(PROMPT)), 400,
                null, null, null, RequestType.CHAT_ANSWER));
            chats += last instanceof LlmOutcome.Answered ? 1 : 0;
        } while (last instanceof LlmOutcome.Answered && chats < 100);

        assertThat(last).isInstanceOf(LlmOutcome.Saturated.class);
        assertThat(((LlmOutcome.Saturated) last).reason()).contains("token budget spent");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(allocation.read().used()).isGreaterThan(9_000));
    }
}
