package io.sluice.app.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.chat.Answer;
import io.sluice.api.chat.AnsweringStep;
import io.sluice.api.chat.FaqAnsweringStep;
import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.governance.permit.ClusterPermits;

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
 * The thin end-to-end slice against real PostgreSQL (+pgvector) and real Redis: a message goes in,
 * an F1 answer from the seeded FAQ comes out and the exchange is stored. F1 needs nothing remote:
 * it takes no LLM permit and no admission slot (the gateway takes permits per LLM call).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ChatSliceTest {

    static final String EXPLODE = "please fail while answering";

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        registry.add("sluice.db.url", TestServices::databaseUrl);
        registry.add("sluice.redis.url", TestServices::redisUrl);
        registry.add("sluice.permits.key-prefix", () -> "test:" + UUID.randomUUID() + ":permits:");
        registry.add("sluice.data-dir", () -> System.getProperty("java.io.tmpdir") + "/sluice-test-" + UUID.randomUUID());
    }

    @TestConfiguration
    static class ObservedAnswering {
        /** Wraps the real F1 step: records the permits in use while it runs, and can be told to fail. */
        @Bean
        @Primary
        ObservingStep observingStep(FaqAnsweringStep real, ClusterPermits permits, PriorityAdmission admission) {
            return new ObservingStep(real, permits, admission);
        }
    }

    static class ObservingStep implements AnsweringStep {
        final AnsweringStep real;
        final ClusterPermits permits;
        final PriorityAdmission admission;
        final AtomicInteger permitsInUseWhileAnswering = new AtomicInteger(-1);
        final AtomicInteger admissionSlotsWhileAnswering = new AtomicInteger(-1);

        ObservingStep(AnsweringStep real, ClusterPermits permits, PriorityAdmission admission) {
            this.real = real;
            this.permits = permits;
            this.admission = admission;
        }

        @Override
        public Answer answer(String message) {
            permitsInUseWhileAnswering.set(permits.inUse("interactive"));
            admissionSlotsWhileAnswering.set(admission.inFlight());
            if (message.equals(EXPLODE)) {
                throw new IllegalStateException("answering step failed on purpose");
            }
            return real.answer(message);
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    ClusterPermits permits;

    @Autowired
    ObservingStep answering;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    ObjectMapper json;

    Http http;

    @BeforeEach
    void setUp() {
        http = new Http(port, apiKeys.create("slice-test", ClientTier.STANDARD).key());
    }

    @Test
    void answersFromTheSeededFaqAtTierF1AndStoresTheExchange() {
        HttpResponse<String> response = http.postJson("/api/v1/chat",
            "{\"userId\":\"alice\",\"message\":\"退货的运费由谁承担？\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json.readTree(response.body());
        assertThat(body.get("tier").asText()).isEqualTo("F1");
        assertThat(body.get("answer").asText()).contains("运费");
        assertThat(body.get("sources").get(0).get("kind").asText()).isEqualTo("faq");
        assertThat(body.get("latencyMs").asLong()).isGreaterThanOrEqualTo(0);
        UUID requestId = UUID.fromString(body.get("requestId").asText());
        UUID sessionId = UUID.fromString(body.get("sessionId").asText());

        assertThat(jdbc.sql("SELECT role FROM conversation_message WHERE request_id = ? ORDER BY id")
            .param(requestId).query(String.class).list()).containsExactly("USER", "ASSISTANT");
        assertThat(jdbc.sql("SELECT user_id FROM conversation WHERE id = ?").param(sessionId).query(String.class).single())
            .isEqualTo("alice");
    }

    @Test
    void anF1AnswerTakesNoLlmPermitAndNoAdmissionSlot() {
        HttpResponse<String> response = http.postJson("/api/v1/chat", "{\"userId\":\"bob\",\"message\":\"怎么查物流\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(answering.permitsInUseWhileAnswering.get()).isZero();
        assertThat(answering.admissionSlotsWhileAnswering.get()).isZero();
    }

    @Test
    void aFailingAnsweringStepIsA500ProblemHoldsNothingAndStoresNothing() {
        int messagesBefore = messageCount();

        HttpResponse<String> response = http.postJson("/api/v1/chat",
            "{\"userId\":\"carol\",\"message\":\"" + EXPLODE + "\"}");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
            type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(permits.inUse("interactive")).isZero();
        assertThat(answering.admissionSlotsWhileAnswering.get()).isZero();
        assertThat(messageCount()).isEqualTo(messagesBefore);
    }

    @Test
    void continuesASessionOnlyForItsOwnUser() {
        JsonNode first = json.readTree(http.postJson("/api/v1/chat",
            "{\"userId\":\"dave\",\"message\":\"怎么改地址\"}").body());
        String sessionId = first.get("sessionId").asText();

        JsonNode again = json.readTree(http.postJson("/api/v1/chat",
            "{\"userId\":\"dave\",\"sessionId\":\"" + sessionId + "\",\"message\":\"支持哪些支付方式\"}").body());
        JsonNode stranger = json.readTree(http.postJson("/api/v1/chat",
            "{\"userId\":\"eve\",\"sessionId\":\"" + sessionId + "\",\"message\":\"支持哪些支付方式\"}").body());
        JsonNode unknown = json.readTree(http.postJson("/api/v1/chat",
            "{\"userId\":\"dave\",\"sessionId\":\"" + UUID.randomUUID() + "\",\"message\":\"忘记密码\"}").body());

        assertThat(again.get("sessionId").asText()).isEqualTo(sessionId);
        assertThat(stranger.get("sessionId").asText()).isNotEqualTo(sessionId);
        assertThat(unknown.get("sessionId").asText()).isNotEqualTo(sessionId);
    }

    private int messageCount() {
        return jdbc.sql("SELECT count(*) FROM conversation_message").query(Integer.class).single();
    }
}
