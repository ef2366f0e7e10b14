package io.sluice.app.chat;

import static io.sluice.app.support.ChatRequests.chat;
import static io.sluice.app.support.ChatRequests.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.intent.KnnIntentClassifier;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Intent in the whole application (application.yml defaults, real gateway, ONNX model, the mock as the
 * provider): a message the rules are unsure of is refined by the kNN, then by the LLM on plain chat;
 * a stream is not sent to the LLM.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class IntentEndToEndTest {

    static final String RUN = UUID.randomUUID().toString();
    @AutoClose
    static final MockProvider MOCK = MockProvider.start(0);
    static final String VAGUE = "东西到了但是和图片不一样";   // rules: general 0.3; the examples: returns
    static final String LLM_SAYS = "{\"intent\": \"order_problem\", \"confidence\": 0.9}";

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.chatAgainst(registry, RUN, MOCK);
        registry.add("sluice.batch.jobs.work-queue-drain.enabled", () -> "false");
        registry.add("sluice.chat.cache.enabled", () -> "false");
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
    KnnIntentClassifier knn;

    @Autowired
    MeterRegistry meters;

    @Autowired
    ObjectMapper json;

    Http http;

    @BeforeEach
    void setUp() {
        MOCK.scenario(Scenario.healthy().withFixedLatency(20));
        http = Http.newClient(port, apiKeys, "intent-" + RUN, ClientTier.STANDARD);
        TestServices.awaitKnowledge(bootstrap);
        assertThat(knn.size()).isGreaterThanOrEqualTo(500);   // embedded at start
        degradation.pin(DegradationLevel.L0, "intent-test", "intent at L0");
        // the first provider call pays Spring AI's start-up: not inside the intent lane's 1.5 s budget
        ok(http.postJson("/api/v1/chat", chat("退款多久到账")));
        MOCK.reset();
    }

    @AfterEach
    void tearDown() {
        degradation.unpin("intent-test");
        MOCK.scenario(Scenario.healthy());
    }

    double decisions(String source) {
        var counter = meters.find("sluice.chat.intent.decisions").tag("source", source).counters();
        return counter.stream().mapToDouble(c -> c.count()).sum();
    }

    @Test
    void onPlainChatTheLlmDecidesAnIntentTheRulesAndTheKnnWereUnsureOf() {
        MOCK.scenario(Scenario.healthy().withFixedLatency(20).withResponseText(LLM_SAYS));
        double llmBefore = decisions("llm");

        JsonNode answer = ok(http.postJson("/api/v1/chat", chat(VAGUE)));

        assertThat(answer.get("intent").asText()).isEqualTo("order_problem");
        assertThat(answer.get("priority").asText()).isEqualTo("A");
        assertThat(decisions("llm")).isEqualTo(llmBefore + 1);
        assertThat(MOCK.counters().served()).isEqualTo(2);   // the intent call and the answer
    }

    @Test
    void aStreamIsNotSentToTheLlmTheKnnDecides() throws Exception {
        MOCK.scenario(Scenario.healthy().withFixedLatency(20).withResponseText(LLM_SAYS));
        double knnBefore = decisions("knn");

        HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
            http.streamRequest("/api/v1/chat/stream", chat(VAGUE)), HttpResponse.BodyHandlers.ofString());

        String meta = response.body().lines().dropWhile(line -> !line.equals("event:meta")).skip(1).findFirst()
            .orElseThrow(() -> new AssertionError("no meta event in " + response.body()));
        JsonNode fields = json.readTree(meta.substring("data:".length()));
        assertThat(fields.get("intent").asText()).isEqualTo("returns");
        assertThat(fields.get("priority").asText()).isEqualTo("B");
        assertThat(decisions("knn")).isEqualTo(knnBefore + 1);
        assertThat(MOCK.counters().served()).isEqualTo(1);   // the answer only
    }
}
