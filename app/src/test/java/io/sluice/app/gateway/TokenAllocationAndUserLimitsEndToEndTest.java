package io.sluice.app.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ApiScope;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.auth.IssuedKey;
import io.sluice.api.ingress.UserTokenBucket;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.console.dashboard.TokenAllocationConsole;
import io.sluice.governance.allocation.TokenAllocation;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.gateway.RequestType;
import io.sluice.knowledge.sample.KnowledgeBootstrap;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Issue #18 items 1, 6 and 8 end to end: real PostgreSQL, Redis, Lucene, ONNX model, the governed gateway
 * and the batch drain, the mock as the only simulated part.
 * <ul>
 *   <li>a summary flood through the work queue takes over 60 % of the token budget; a chat answer still gets
 *       LLM tokens; further summaries step down to the light route or are put back (token allocation);</li>
 *   <li>a user never answered has the small new-user bucket; their first answer lets it fill;</li>
 *   <li>one end user's requests cause at most their LLM calls per window, then answers come without the
 *       LLM; a VIP end user (of a STANDARD client) gets the VIP multiple;</li>
 *   <li>batch calls carry the level's batch temperature / top_p.</li>
 * </ul>
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TokenAllocationAndUserLimitsEndToEndTest {

    static final String RUN = UUID.randomUUID().toString();
    @AutoClose
    static final MockProvider MOCK = MockProvider.start(0);
    static final String REFUND = "退款多久到账";

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.chatAgainst(registry, RUN, MOCK);
        registry.add("sluice.chat.cache.enabled", () -> "false");
        registry.add("sluice.chat.answer-budget", () -> "8s");
        // the drain runs when the test launches it, not on a schedule
        registry.add("sluice.batch.jobs.work-queue-drain.cron", () -> "0 0 0 1 1 *");
        // a budget a flood of summaries spends in seconds; half of what is left is kept for interactive calls
        registry.add("sluice.gateway.allocation.limit", () -> "20000");
        registry.add("sluice.gateway.allocation.reserve", () -> "0.5");
        // buckets: fast refill, so only the new-user cap can keep a bucket small
        registry.add("sluice.ingress.rate.user.capacity", () -> "20");
        registry.add("sluice.ingress.rate.user.refill-per-second", () -> "20");
        registry.add("sluice.ingress.rate.user.new-user-capacity", () -> "2");
        registry.add("sluice.ingress.rate.llm-calls.limit", () -> "3");
        registry.add("sluice.ingress.rate.llm-calls.vip-multiplier", () -> "3");
    }

    @LocalServerPort
    int port;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    DegradationControl degradation;

    @Autowired
    KnowledgeBootstrap bootstrap;

    @Autowired
    ObjectMapper json;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TokenAllocation allocation;

    @Autowired
    TokenAllocationConsole console;

    @Autowired
    UserTokenBucket buckets;

    @Autowired
    MeterRegistry meters;

    @Autowired
    RedissonClient redisson;

    IssuedKey client;
    Http http;

    @BeforeEach
    void setUp() {
        MOCK.scenario(Scenario.healthy().withFixedLatency(20).withCompletionTokens(300));
        MOCK.reset();
        client = apiKeys.create("alloc-" + RUN + "-" + UUID.randomUUID(), ClientTier.STANDARD,
            EnumSet.of(ApiScope.CHAT, ApiScope.TASKS, ApiScope.JOBS));
        http = new Http(port, client.key());
        TestServices.awaitKnowledge(bootstrap);
        // every test starts from an empty allocation window
        redisson.getKeys().delete("test:" + RUN + ":alloc:{window}");
    }

    @AfterEach
    void tearDown() {
        degradation.unpin("alloc-test");
        allocation.resetToConfigured();
    }

    JsonNode ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isBetween(200, 202);
        return json.readTree(response.body());
    }

    JsonNode chat(String user, String message, boolean acceptDeferred) {
        return ok(http.postJson("/api/v1/chat", "{\"userId\":\"" + user + "\",\"message\":\"" + message + "\""
            + (acceptDeferred ? ",\"acceptDeferred\":true" : "") + "}"));
    }

    double decisions(String type, String outcome) {
        return meters.get("sluice.gateway.allocation.decisions").tag("type", type).tag("outcome", outcome).counter().count();
    }

    // --- item 1 -----------------------------------------------------------------------------------

    @Test
    void aSummaryFloodTakesOverSixtyPercentYetAChatAnswerStillGetsLlmTokensAndFurtherSummariesStepDownOrWait() {
        degradation.pin(DegradationLevel.L0, "alloc-test", "token allocation test");
        long document = jdbc.sql("SELECT document_id FROM knowledge_chunk GROUP BY document_id "
            + "ORDER BY sum(length(content)) DESC LIMIT 1").query(Long.class).single();
        double refusedBefore = decisions("summary", "refused") + decisions("summary", "stepped_down");
        for (int i = 0; i < 40; i++) {
            ok(http.postJson("/api/v1/tasks", "{\"type\":\"summarize_document\",\"payload\":{\"documentId\":" + document
                + "}}"));
        }

        ok(http.postJson("/api/v1/jobs/work-queue-drain/executions", "{}"));

        await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
            TokenAllocation.Snapshot window = allocation.read();
            assertThat(window.share(RequestType.SUMMARY)).as("summaries' part of the budget").isGreaterThan(0.6);
            assertThat(window.reserveActive()).isTrue();
            assertThat(decisions("summary", "refused") + decisions("summary", "stepped_down"))
                .as("further summaries stepped down or were put back").isGreaterThan(refusedBefore);
        });
        // the batch calls carried the level's batch-lane sampling knobs (application.yml, L0: 0.2 / 0.9)
        assertThat(MOCK.lastRequest().get("temperature").asDouble()).isEqualTo(0.2);
        assertThat(MOCK.lastRequest().get("top_p").asDouble()).isEqualTo(0.9);
        long served = MOCK.counters().served();

        JsonNode answer = chat("u-" + UUID.randomUUID(), REFUND, false);

        assertThat(answer.get("tier").asText()).as("the interactive reserve still pays for an LLM answer: %s", answer)
            .isIn("F4", "F3", "F2");
        assertThat(MOCK.counters().served()).isGreaterThan(served);
        TokenAllocationConsole.View view = console.view();
        assertThat(view.rows()).anySatisfy(row -> {
            assertThat(row.type()).isEqualTo("summary");
            assertThat(row.percent()).isGreaterThan(60);
            assertThat(row.dominant()).isTrue();
        });
        assertThat(view.rows()).anySatisfy(row -> {
            assertThat(row.type()).isEqualTo("chat_answer");
            assertThat(row.tokens()).isPositive();
            assertThat(row.interactive()).isTrue();
        });
    }

    @Test
    void shareAndReserveAreEditedLiveAuditedAndABadValueChangesNothing() {
        assertThat(console.update("alice", Map.of("share", "50", "reserve", "40 %"))).isTrue();

        assertThat(allocation.settings()).isEqualTo(new TokenAllocation.Settings(0.5, 0.4));
        assertThat(console.view().changed()).isTrue();
        assertThat(jdbc.sql("SELECT count(*) FROM audit_log WHERE actor = 'alice' AND action = 'gateway.allocation'")
            .query(Long.class).single()).isPositive();
        assertThatThrownBy(() -> console.update("alice", Map.of("share", "150", "reserve", "30")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("share");
        assertThatThrownBy(() -> console.update("alice", Map.of("share", "sixty", "reserve", "30")))
            .hasMessageContaining("number");
        assertThat(allocation.settings()).isEqualTo(new TokenAllocation.Settings(0.5, 0.4));

        console.reset("alice");
        assertThat(allocation.settings()).isEqualTo(new TokenAllocation.Settings(0.6, 0.5));
    }

    // --- item 6 -----------------------------------------------------------------------------------

    @Test
    void aUserNeverAnsweredKeepsTheSmallNewUserBucketAndTheirFirstAnswerLetsItFill() {
        degradation.pin(DegradationLevel.L3, "alloc-test", "answers without the LLM: fast and free");
        String waiting = "u-" + UUID.randomUUID();
        String answered = "u-" + UUID.randomUUID();

        // a deferred ticket (F0) is no answer yet; an F1 answer is
        assertThat(chat(waiting, REFUND, true).get("tier").asText()).isEqualTo("F0");
        assertThat(chat(answered, REFUND, false).get("tier").asText()).isEqualTo("F1");

        String waitingKey = client.client().id() + ":" + waiting;
        String answeredKey = client.client().id() + ":" + answered;
        await().atMost(Duration.ofSeconds(10)).until(() -> buckets.answeredBefore(answeredKey));
        assertThat(buckets.answeredBefore(waitingKey)).isFalse();
        // the refill is 20/s, yet the never-answered bucket never holds more than the new-user capacity of 2
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> {
            UserTokenBucket.Decision d = buckets.take(waitingKey, false);
            return d.newUser() && d.tokensLeft() < 2;
        });
        // while the answered user's bucket fills towards its full capacity of 20
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            UserTokenBucket.Decision d = buckets.take(answeredKey, false);
            return !d.newUser() && d.tokensLeft() > 5;
        });
    }

    @Test
    void oneUsersRequestsMakeAtMostTheirLlmCallsPerWindowThenAnswerWithoutTheLlmAndAVipEndUserGetsMore() {
        degradation.pin(DegradationLevel.L0, "alloc-test", "F4 answers: one LLM call each");
        String user = "u-" + UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            assertThat(chat(user, REFUND, false).get("tier").asText()).as("LLM call %d of 3", i + 1).isEqualTo("F4");
        }
        double refusedBefore = meters.get("sluice.ingress.llm-calls").tag("outcome", "refused").counter().count();

        JsonNode fourth = chat(user, REFUND, false);

        assertThat(fourth.get("tier").asText()).as("the user's window is spent: no LLM").isEqualTo("F1");
        assertThat(meters.get("sluice.ingress.llm-calls").tag("outcome", "refused").counter().count())
            .isGreaterThan(refusedBefore);
        assertThat(chat("u-" + UUID.randomUUID(), REFUND, false).get("tier").asText())
            .as("another user of the same client is not affected").isEqualTo("F4");

        // VIP as an attribute of the end user, while the client stays STANDARD
        IssuedKey operator = apiKeys.create("operator-" + RUN + "-" + UUID.randomUUID(), ClientTier.STANDARD,
            EnumSet.of(ApiScope.ADMIN));
        Http admin = new Http(port, operator.key());
        String vip = "vip-" + UUID.randomUUID();
        JsonNode marked = ok(admin.send("PUT", "/api/v1/clients/" + client.client().id() + "/vip-users/" + vip, ""));
        assertThat(marked.get("vip").asBoolean()).isTrue();
        assertThat(ok(admin.get("/api/v1/clients/" + client.client().id() + "/vip-users")).get("users").toString())
            .contains(vip);
        assertThat(admin.send("PUT", "/api/v1/clients/999999999/vip-users/" + vip, "").statusCode()).isEqualTo(404);
        assertThat(http.send("PUT", "/api/v1/clients/" + client.client().id() + "/vip-users/" + vip, "").statusCode())
            .as("the chat key has no admin scope").isEqualTo(403);
        for (int i = 0; i < 4; i++) {
            assertThat(chat(vip, REFUND, false).get("tier").asText()).as("VIP LLM call %d (limit 9)", i + 1).isEqualTo("F4");
        }
        assertThat(jdbc.sql("SELECT count(*) FROM audit_log WHERE action = 'client.end-user-vip'").query(Long.class).single())
            .isPositive();
    }
}
