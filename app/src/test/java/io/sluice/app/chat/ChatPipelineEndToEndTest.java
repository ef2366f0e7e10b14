package io.sluice.app.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.auth.ApiKeys;
import io.sluice.api.chat.PassageRetriever;
import io.sluice.api.intent.Priority;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.auth.IssuedKey;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.gateway.LlmStream;
import io.sluice.governance.gateway.LlmStreamListener;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The chat pipeline end to end over HTTP, real PostgreSQL and Redis, and a fake LLM gateway (the
 * real one is another module's): authentication, per-user rate limits, masking of what is stored,
 * intent and priority in the response, and an operator's level pin capping the tier.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ChatPipelineEndToEndTest {

    static final String RUN = UUID.randomUUID().toString();

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, RUN);
        // a new user gets 2 requests (half of 4), VIP users 6; refills too slowly to matter here
        registry.add("sluice.ingress.rate.user.capacity", () -> "4");
        registry.add("sluice.ingress.rate.user.refill-per-second", () -> "0.01");
        // two LLM answers at once, and S may wait long: only a disconnect can empty the queue fast
        registry.add("sluice.chat.admission.capacity", () -> "2");
        registry.add("sluice.chat.admission.max-wait.S", () -> "30s");
    }

    @TestConfiguration
    static class FakeGatewayConfiguration {
        @Bean
        @Primary
        RecordingGateway recordingGateway() {
            return new RecordingGateway();
        }

        /** No retrieval: these tests are about the pipeline, so the LLM tier is F2 (FAQ polished). */
        @Bean
        @Primary
        PassageRetriever noRetrieval() {
            return PassageRetriever.NONE;
        }
    }

    /** Answers every call at once and remembers the prompts it was given. */
    static class RecordingGateway implements LlmGateway {
        final List<LlmRequest> calls = new CopyOnWriteArrayList<>();

        @Override
        public boolean available() {
            return true;
        }

        @Override
        public LlmOutcome call(LlmRequest request) {
            calls.add(request);
            return new LlmOutcome.Answered("polished answer", "fake-light", 10, 5, 1, false);
        }

        @Override
        public LlmStream stream(LlmRequest request, LlmStreamListener listener) {
            calls.add(request);
            listener.onToken("polished ");
            listener.onToken("answer");
            listener.onComplete(new LlmOutcome.Answered("polished answer", "fake-light", 10, 5, 1, false));
            return new LlmStream() {
                @Override
                public void cancel() {
                }

                @Override
                public boolean finished() {
                    return true;
                }
            };
        }
    }

    @LocalServerPort
    int port;

    @org.springframework.boot.test.web.server.LocalManagementPort
    int managementPort;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    DegradationControl degradation;

    @Autowired
    RecordingGateway gateway;

    @Autowired
    PriorityAdmission admission;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ObjectMapper json;

    IssuedKey client;
    Http http;

    @BeforeEach
    void setUp() {
        client = apiKeys.create("e2e-" + RUN, ClientTier.STANDARD);
        http = new Http(port, client.key());
    }

    static String user() {
        return "user-" + UUID.randomUUID();
    }

    static String chat(String userId, String message) {
        return "{\"userId\":\"" + userId + "\",\"message\":\"" + message + "\"}";
    }

    JsonNode ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json.readTree(response.body());
    }

    // --- authentication ---------------------------------------------------------------------

    @Test
    void refusesMissingUnknownAndRevokedKeysWith401Problems() {
        HttpResponse<String> missing = new Http(port).postJson("/api/v1/chat", chat(user(), "你好"));
        HttpResponse<String> unknown = new Http(port, "sk-sluice-not-a-real-key-000000").postJson("/api/v1/chat",
            chat(user(), "你好"));
        IssuedKey revoked = apiKeys.create("e2e-revoked-" + RUN, ClientTier.STANDARD);
        assertThat(new Http(port, revoked.key()).postJson("/api/v1/chat", chat(user(), "你好")).statusCode()).isEqualTo(200);
        apiKeys.revoke(revoked.client().id());
        HttpResponse<String> afterRevocation = new Http(port, revoked.key()).postJson("/api/v1/chat", chat(user(), "你好"));

        for (HttpResponse<String> response : List.of(missing, unknown, afterRevocation)) {
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
            assertThat(response.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
            assertThat(json.readTree(response.body()).get("type").asText())
                .isEqualTo("https://sluice.dev/problems/unauthorized");
        }
        assertThat(json.readTree(missing.body()).get("detail").asText()).contains("API key is required");
    }

    @Test
    void acceptsTheKeyAsXApiKeyToo() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/chat"))
                .header("Content-Type", "application/json")
                .header("X-API-Key", client.key())
                .POST(HttpRequest.BodyPublishers.ofString(chat(user(), "你好")))
                .build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
    }

    /**
     * The groups deploy/kubernetes probes: liveness = the JVM answers, readiness = it takes traffic; neither
     * includes the database or Redis, whose outages Sluice degrades through (F1 answers, per-instance shares)
     * rather than restarting or unrouting every pod at once.
     */
    @Test
    void theKubernetesProbesHaveTheirHealthGroups() throws Exception {
        for (String group : List.of("liveness", "readiness")) {
            HttpResponse<String> response = new Http(managementPort).get("/actuator/health/" + group);
            assertThat(response.statusCode()).as(group).isEqualTo(200);
            JsonNode body = new ObjectMapper().readTree(response.body());
            assertThat(body.path("status").asText()).as(group).isEqualTo("UP");
            assertThat(body.path("components").has("db")).as(group + " leaves the database out").isFalse();
            assertThat(body.path("components").has("redis")).as(group + " leaves Redis out").isFalse();
        }
        assertThat(new Http(port).get("/actuator/health/readiness").statusCode()).isNotEqualTo(200);
    }

    @Test
    void healthAnswersOnTheManagementPortOnlyAndKeysAreStoredOnlyAsHashes() {
        assertThat(new Http(managementPort).get("/actuator/health").statusCode()).isEqualTo(200);
        assertThat(new Http(port).get("/actuator/health").statusCode()).isNotEqualTo(200);
        String stored = jdbc.sql("SELECT key_hash FROM api_client WHERE id = ?").param(client.client().id())
            .query(String.class).single();
        assertThat(stored).hasSize(64).doesNotContain(client.key());
        assertThat(client.toString()).doesNotContain(client.key());
    }

    // --- ingress ----------------------------------------------------------------------------

    @Test
    void aNewUserGetsHalfABucketThenA429WithRetryAfter() {
        String user = user();
        ok(http.postJson("/api/v1/chat", chat(user, "你好")));
        ok(http.postJson("/api/v1/chat", chat(user, "你好")));

        HttpResponse<String> refused = http.postJson("/api/v1/chat", chat(user, "你好"));

        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(
            seconds -> assertThat(Long.parseLong(seconds)).isPositive());
        JsonNode problem = json.readTree(refused.body());
        assertThat(problem.get("type").asText()).isEqualTo("https://sluice.dev/problems/rate-limited");
        assertThat(problem.get("scope").asText()).isEqualTo("user");
        ok(http.postJson("/api/v1/chat", chat(user(), "你好")));   // other users are not affected
    }

    @Test
    void vipUsersGetThreeTimesTheBucket() {
        Http vip = new Http(port, apiKeys.create("e2e-vip-" + RUN, ClientTier.VIP).key());
        String user = user();
        for (int i = 0; i < 6; i++) {
            ok(vip.postJson("/api/v1/chat", chat(user, "你好")));
        }
        assertThat(vip.postJson("/api/v1/chat", chat(user, "你好")).statusCode()).isEqualTo(429);
    }

    // --- masking, intent, sessions ------------------------------------------------------------

    @Test
    void storesMaskedTextWhileTheLlmSeesTheMessageAsSent() {
        String message = "退款多久到账？手机13812345678，身份证110101199003074512，卡号6222020200001234562";

        JsonNode answer = ok(http.postJson("/api/v1/chat", chat(user(), message)));

        UUID requestId = UUID.fromString(answer.get("requestId").asText());
        String stored = jdbc.sql("SELECT content FROM conversation_message WHERE request_id = ? AND role = 'USER'")
            .param(requestId).query(String.class).single();
        assertThat(stored).contains("138****5678", "110***********4512", "***************4562")
            .doesNotContain("13812345678", "110101199003074512", "6222020200001234562");
        assertThat(gateway.calls).anySatisfy(call -> assertThat(call.messages())
            .extracting(LlmMessage::content).contains(message));

        JsonNode session = ok(http.get("/api/v1/sessions/" + answer.get("sessionId").asText()));
        assertThat(session.get("messages").get(0).get("content").asText()).contains("138****5678")
            .doesNotContain("13812345678");
    }

    @Test
    void answersCarryIntentPriorityAndTheFullSetOfFields() {
        JsonNode complaint = ok(http.postJson("/api/v1/chat", chat(user(), "我要投诉，你们客服态度太差了")));
        JsonNode payment = ok(http.postJson("/api/v1/chat", chat(user(), "付款失败了但是钱被扣了")));
        JsonNode logistics = ok(http.postJson("/api/v1/chat", chat(user(), "怎么查物流")));

        assertThat(complaint.get("intent").asText()).isEqualTo("complaint");
        assertThat(complaint.get("priority").asText()).isEqualTo("S");
        assertThat(payment.get("priority").asText()).isEqualTo("A");
        assertThat(logistics.get("intent").asText()).isEqualTo("logistics");
        assertThat(logistics.get("priority").asText()).isEqualTo("B");
        for (String field : List.of("answer", "tier", "badge", "sources", "intent", "priority", "cached", "queueWaitMs",
                "latencyMs", "requestId", "sessionId", "degradationLevel")) {
            assertThat(logistics.has(field)).as(field).isTrue();
        }
        String stored = jdbc.sql("SELECT intent || '/' || priority FROM conversation_message WHERE request_id = ? AND role = 'ASSISTANT'")
            .param(UUID.fromString(complaint.get("requestId").asText())).query(String.class).single();
        assertThat(stored).isEqualTo("complaint/S");
    }

    @Test
    void aClientReadsAndContinuesOnlyItsOwnSessions() {
        String user = user();
        JsonNode first = ok(http.postJson("/api/v1/chat", chat(user, "怎么查物流")));
        String sessionId = first.get("sessionId").asText();
        Http otherClient = new Http(port, apiKeys.create("e2e-other-" + RUN, ClientTier.STANDARD).key());

        JsonNode continued = ok(http.postJson("/api/v1/chat",
            "{\"userId\":\"" + user + "\",\"sessionId\":\"" + sessionId + "\",\"message\":\"运费谁出\"}"));
        JsonNode hijack = ok(otherClient.postJson("/api/v1/chat",
            "{\"userId\":\"" + user + "\",\"sessionId\":\"" + sessionId + "\",\"message\":\"运费谁出\"}"));

        assertThat(continued.get("sessionId").asText()).isEqualTo(sessionId);
        assertThat(hijack.get("sessionId").asText()).isNotEqualTo(sessionId);
        JsonNode session = ok(http.get("/api/v1/sessions/" + sessionId));
        assertThat(session.get("messages")).hasSize(4);
        assertThat(otherClient.get("/api/v1/sessions/" + sessionId).statusCode()).isEqualTo(404);
        assertThat(ok(http.get("/api/v1/sessions?userId=" + user))).hasSize(1);
    }

    @Test
    void feedbackIsStoredAndMoreDetailReAnswersInTheSameSessionOnlyForTheAskingClient() {
        String user = user();
        JsonNode first;
        degradation.pin(DegradationLevel.L3, "e2e-feedback", "answer at F1 first");
        try {
            first = ok(http.postJson("/api/v1/chat", chat(user, "退款多久到账")));
        } finally {
            degradation.unpin("e2e-feedback");
        }
        assertThat(first.get("tier").asText()).isEqualTo("F1");
        String path = "/api/v1/chat/" + first.get("requestId").asText() + "/feedback";

        JsonNode better = ok(http.postJson(path, "{\"moreDetail\":true}"));
        assertThat(better.get("tier").asText()).isEqualTo("F2");
        assertThat(better.get("sessionId").asText()).isEqualTo(first.get("sessionId").asText());

        assertThat(http.postJson(path, "{\"helpful\":true}").statusCode()).isEqualTo(204);
        assertThat(jdbc.sql("SELECT feedback FROM conversation_message WHERE request_id = ? AND role = 'ASSISTANT'")
            .param(UUID.fromString(first.get("requestId").asText())).query(String.class).single()).isEqualTo("HELPFUL");
        Http otherClient = new Http(port, apiKeys.create("e2e-feedback-other-" + RUN, ClientTier.STANDARD).key());
        assertThat(otherClient.postJson(path, "{\"helpful\":false}").statusCode()).isEqualTo(404);
        assertThat(http.postJson(path, "{}").statusCode()).isEqualTo(400);
    }

    // --- SSE ------------------------------------------------------------------------------------

    HttpRequest streamRequest(String body) {
        return http.streamRequest("/api/v1/chat/stream", body);
    }

    @Test
    void streamsMetaTokenAndDoneEvents() throws Exception {
        HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
            .send(streamRequest(chat(user(), "退款多久到账")), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        String body = response.body();
        assertThat(body).contains("event:meta", "event:token", "event:done");
        assertThat(body.indexOf("event:meta")).isLessThan(body.indexOf("event:token"));
        assertThat(body.indexOf("event:token")).isLessThan(body.indexOf("event:done"));
        // F2 is checked against its FAQ answer before it goes out (shadow check): one token, not streamed
        assertThat(body).contains("\"tier\":\"F2\"", "\"text\":\"polished answer\"");
    }

    @Test
    void aClientThatDisconnectsWhileQueuedLeavesNothingBehind() throws Exception {
        String user = user();
        PriorityAdmission.Ticket first = admission.admit(Priority.S, false, PriorityAdmission.QueueListener.NONE);
        PriorityAdmission.Ticket second = admission.admit(Priority.S, false, PriorityAdmission.QueueListener.NONE);
        try {
            HttpResponse<java.io.InputStream> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .build().send(streamRequest(chat(user, "我要投诉，太慢了")), HttpResponse.BodyHandlers.ofInputStream());
            try (java.io.BufferedReader events = new java.io.BufferedReader(
                    new java.io.InputStreamReader(response.body(), java.nio.charset.StandardCharsets.UTF_8))) {
                String line;
                while ((line = events.readLine()) != null && !line.startsWith("event:queued")) {
                    // skip to the queued event
                }
                assertThat(line).isEqualTo("event:queued");
                assertThat(events.readLine()).contains("\"position\":1");
                assertThat(admission.queueLength()).isEqualTo(1);
            }   // the client goes away while still queued

            await().until(() -> admission.queueLength() == 0);
            assertThat(admission.inFlight()).as("only the two test tickets").isEqualTo(2);
            assertThat(jdbc.sql("SELECT count(*) FROM conversation WHERE user_id = ?").param(user)
                .query(Integer.class).single()).as("nothing recorded for a cancelled request").isZero();
        } finally {
            first.close();
            second.close();
        }
    }

    // --- degradation ------------------------------------------------------------------------

    @Test
    void anOperatorPinCapsTheTierAndIsReportedInTheResponse() {
        try {
            JsonNode normal = ok(http.postJson("/api/v1/chat", chat(user(), "退款多久到账")));
            assertThat(normal.get("degradationLevel").asText()).isEqualTo("L0");
            assertThat(normal.get("tier").asText()).isEqualTo("F2");
            assertThat(normal.get("badge").asText()).isEqualTo("fast answer");

            degradation.pin(DegradationLevel.L3, "e2e", "provider maintenance");
            // a question not cached yet (the L0 answer above would be served from the cache at any level)
            JsonNode pinned = ok(http.postJson("/api/v1/chat", chat(user(), "会员积分怎么查询")));
            assertThat(pinned.get("degradationLevel").asText()).isEqualTo("L3");
            assertThat(pinned.get("tier").asText()).isEqualTo("F1");
            assertThat(pinned.get("badge").asText()).isEqualTo("automatic answer");

            degradation.pin(DegradationLevel.L2, "e2e", "shed lane B");
            JsonNode laneB = ok(http.postJson("/api/v1/chat", chat(user(), "退货的运费谁来出")));
            JsonNode laneS = ok(http.postJson("/api/v1/chat", chat(user(), "我要投诉退款太慢")));
            assertThat(laneB.get("priority").asText()).isEqualTo("B");
            assertThat(laneB.get("tier").asText()).isEqualTo("F1");
            assertThat(laneS.get("priority").asText()).isEqualTo("S");
            assertThat(laneS.get("tier").asText()).isEqualTo("F2");
        } finally {
            degradation.unpin("e2e");
        }
        assertThat(ok(http.postJson("/api/v1/chat", chat(user(), "退款多久到账"))).get("degradationLevel").asText())
            .isEqualTo("L0");
    }
}
