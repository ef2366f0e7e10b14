package io.sluice.app.chat;

import static io.sluice.app.support.ChatRequests.chat;
import static io.sluice.app.support.ChatRequests.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.batch.jobs.JobControl;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.knowledge.sample.KnowledgeBootstrap;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;

/**
 * Issue 18 (items 2, 3, 7) through the whole application: real PostgreSQL + pgvector, Redis (cache on),
 * Lucene, the ONNX model, the governed gateway and the batch drain, with only the LLM simulated (the mock,
 * which records what it was sent).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class GroundedAnswersEndToEndTest {

    static final String RUN = UUID.randomUUID().toString();
    @AutoClose
    static final MockProvider MOCK = MockProvider.start(0);

    static final String RETURNS = "退货的运费谁来出";           // B: at L2 deferred when the client accepts it
    static final String PAYMENT = "付款失败了但是钱被扣了";     // A
    static final String REFUND = "退款多久到账";               // A

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.chatAgainst(registry, RUN, MOCK);
        registry.add("sluice.batch.jobs.work-queue-drain.enabled", () -> "false");   // the test launches it
        registry.add("sluice.chat.answer-budget", () -> "8s");
        registry.add("sluice.gateway.lanes.interactive.budget", () -> "8s");
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
    IngestionService ingestion;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    JobControl jobs;

    @Autowired
    MeterRegistry meters;

    Http http;

    @BeforeEach
    void setUp() {
        MOCK.scenario(Scenario.healthy().withFixedLatency(20));
        MOCK.reset();
        http = Http.newClient(port, apiKeys, "grounded-" + UUID.randomUUID(), ClientTier.STANDARD);
        TestServices.awaitKnowledge(bootstrap);
    }

    @AfterEach
    void tearDown() {
        degradation.unpin("grounded-test");
        MOCK.scenario(Scenario.healthy());
    }

    JsonNode ask(DegradationLevel level, String body) {
        degradation.pin(level, "grounded-test", "pinned by the test");
        return ok(http.postJson("/api/v1/chat", body));
    }

    /** The requests the mock received whose last message is {@code question}. */
    static List<JsonNode> callsAbout(String question) {
        return MOCK.recentRequests().stream().filter(r -> {
            JsonNode messages = r.get("messages");
            return messages != null && messages.size() > 0
                && question.equals(messages.get(messages.size() - 1).get("content").asText());
        }).toList();
    }

    double counter(String name, String... tags) {
        var c = meters.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    // --- item 2: deferred answers are grounded; "more detail" --------------------------------------------

    @Test
    void aDeferredAnswerIsMadeFromRetrievedPassagesUnderTheRuleNeverToInventPolicies() {
        JsonNode deferred = ask(DegradationLevel.L2, chat(RETURNS, true));
        assertThat(deferred.get("tier").asText()).isEqualTo("F0");
        String ticket = deferred.get("ticket").asText();
        degradation.unpin("grounded-test");
        MOCK.scenario(Scenario.healthy().withFixedLatency(20).withResponseText("非质量问题的退货运费由买家承担 [1]。"));

        jobs.launch("work-queue-drain", Map.of("queue", "default"));

        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
            .until(() -> "DONE".equals(ok(http.get("/api/v1/tasks/" + ticket)).get("state").asText()));
        JsonNode task = ok(http.get("/api/v1/tasks/" + ticket));
        assertThat(task.get("result").toString()).contains("非质量问题的退货运费由买家承担 [1]。");
        List<JsonNode> calls = callsAbout(RETURNS);
        assertThat(calls).as("the batch call for the deferred question").isNotEmpty();
        String system = calls.get(calls.size() - 1).get("messages").get(0).get("content").asText();
        assertThat(system).contains("Reference passages:", "[1] ", "[2] ",
            "Never invent policies, amounts or dates", "请用简体中文回答");
        assertThat(system).as("the passages are about the question").contains("运费");
    }

    @Test
    void moreDetailIsNeverTheCachedTextAgainItIsAskedAtF4OrDeferredWhenF4IsNotAllowedNow() {
        JsonNode first = ask(DegradationLevel.L0, chat(PAYMENT, false));
        assertThat(first.get("tier").asText()).isEqualTo("F4");
        JsonNode repeat = ask(DegradationLevel.L0, chat(PAYMENT, false));
        assertThat(repeat.get("cached").asBoolean()).isTrue();
        assertThat(repeat.get("answer").asText()).isEqualTo(first.get("answer").asText());
        MOCK.scenario(Scenario.healthy().withFixedLatency(20)
            .withResponseText("详细说明：扣款未成功的订单，款项会在1-3个工作日内自动退回原支付账户 [1]。"));
        long served = MOCK.counters().served();

        JsonNode detailed = ok(http.postJson("/api/v1/chat/" + repeat.get("requestId").asText() + "/feedback",
            "{\"moreDetail\":true}"));

        assertThat(detailed.get("cached").asBoolean()).isFalse();
        assertThat(detailed.get("tier").asText()).isEqualTo("F4");
        assertThat(detailed.get("answer").asText()).isNotEqualTo(first.get("answer").asText()).startsWith("详细说明");
        assertThat(MOCK.counters().served()).isGreaterThan(served);
        List<JsonNode> calls = callsAbout(PAYMENT);
        assertThat(calls.get(calls.size() - 1).get("messages").get(0).get("content").asText())
            .contains("asked for more detail");

        // at L1 (F3 at most) the full answer is offered for later instead of the same lower tier again
        degradation.pin(DegradationLevel.L1, "grounded-test", "pinned by the test");
        long before = MOCK.counters().requests();
        JsonNode later = ok(http.postJson("/api/v1/chat/" + repeat.get("requestId").asText() + "/feedback",
            "{\"moreDetail\":true}"));
        assertThat(later.get("tier").asText()).isEqualTo("F0");
        assertThat(later.get("cached").asBoolean()).isFalse();
        assertThat(later.get("ticket").asText()).isNotBlank();
        assertThat(MOCK.counters().requests()).isEqualTo(before);
        assertThat(counter("sluice.chat.more_detail", "outcome", "deferred")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void theCacheKnobsOfEachLevelComeFromTheOneLevelMapInApplicationYml() {
        assertThat(degradation.knobs(DegradationLevel.L0).cacheGrace()).isEqualTo(Duration.ZERO);
        assertThat(degradation.knobs(DegradationLevel.L2).cacheGrace()).isEqualTo(Duration.ofHours(6));
        assertThat(degradation.knobs(DegradationLevel.L3).cacheGrace()).isEqualTo(Duration.ofHours(24));
        assertThat(degradation.knobs(DegradationLevel.L3).cacheShortForm()).isTrue();
        assertThat(degradation.knobs(DegradationLevel.L2).cacheShortForm()).isFalse();
    }

    // --- item 3: freshness ------------------------------------------------------------------------------

    @Test
    void anAnswerFromADocumentIngestedLongAgoSaysSoInTheTextAndInTheResponse() {
        String id = "stardust-points-" + RUN;
        ingestion.ingest(new DocumentRequest(id, "星尘会员积分规则", "stardust.md", "text/markdown",
            ("# 星尘会员积分规则\n\n## 兑换\n\n星尘会员的积分每满500分可以兑换一张20元无门槛券，"
                + "星尘积分有效期为两年，过期自动清零。星尘积分不能转赠他人。\n").getBytes(StandardCharsets.UTF_8),
            null, "membership", List.of(), null, null));
        Instant ingested = Instant.now().minus(400, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
        jdbc.update("UPDATE knowledge_document SET ingested_at = ? WHERE external_id = ?",
            java.sql.Timestamp.from(ingested), id);

        JsonNode answer = ask(DegradationLevel.L0, chat("星尘会员积分怎么兑换优惠券", false));

        assertThat(answer.get("tier").asText()).isEqualTo("F4");
        assertThat(answer.get("sources").findValuesAsString("id")).contains(id);
        String date = ingested.atZone(ZoneOffset.UTC).toLocalDate().toString();
        assertThat(answer.get("answer").asText()).endsWith("（以上回答基于 " + date + " 的信息，可能已过时。）");
        assertThat(answer.get("freshness").get("basedOn").asText()).isEqualTo(date);
        assertThat(answer.get("freshness").get("reason").asText()).isEqualTo("age");
        assertThat(answer.get("freshness").get("mayBeOutdated").asBoolean()).isTrue();

        JsonNode fresh = ask(DegradationLevel.L3, chat(REFUND, false));
        assertThat(fresh.has("freshness")).as("a recent FAQ entry: no notice").isFalse();
    }

    // --- item 7: F2 → F1 shadow check ---------------------------------------------------------------------

    @Test
    void aPolishThatContradictsItsFaqAnswerIsServedAsTheFaqAnswerAtF1AndCounted() {
        JsonNode faq = ask(DegradationLevel.L3, chat(REFUND, false));
        assertThat(faq.get("tier").asText()).isEqualTo("F1");
        assertThat(faq.get("sources")).isNotEmpty();
        MOCK.scenario(Scenario.healthy().withFixedLatency(20).withResponseText("好消息：退款将在99个工作日内到账。"));
        double before = counter("sluice.chat.shadow", "outcome", "numbers");

        JsonNode answer = ask(DegradationLevel.L2, chat(REFUND, false));

        assertThat(callsAbout(REFUND)).as("the light model was asked to polish").isNotEmpty();
        assertThat(answer.get("tier").asText()).isEqualTo("F1");
        assertThat(answer.get("answer").asText()).isEqualTo(faq.get("answer").asText()).doesNotContain("99");
        assertThat(answer.get("sources").get(0).get("id").asText()).isEqualTo(faq.get("sources").get(0).get("id").asText());
        assertThat(counter("sluice.chat.shadow", "outcome", "numbers")).isEqualTo(before + 1);

        // the same polish without the invented number goes out as F2
        MOCK.scenario(Scenario.healthy().withFixedLatency(20).withResponseText("您好，" + faq.get("answer").asText()));
        JsonNode agreed = ask(DegradationLevel.L2, chat(REFUND, false));
        assertThat(agreed.get("tier").asText()).isEqualTo("F2");
        assertThat(agreed.get("answer").asText()).startsWith("您好，");
    }
}
