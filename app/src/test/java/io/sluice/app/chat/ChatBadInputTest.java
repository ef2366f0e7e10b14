package io.sluice.app.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.stream.Stream;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** Bad input gets a 4xx problem+json with a stable type and a readable detail, and stores nothing. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ChatBadInputTest {

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        registry.add("sluice.db.url", TestServices::databaseUrl);
        registry.add("sluice.redis.url", TestServices::redisUrl);
        registry.add("sluice.data-dir", () -> System.getProperty("java.io.tmpdir") + "/sluice-test-" + UUID.randomUUID());
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    ObjectMapper json;

    static Stream<Arguments> badRequests() {
        String tooLong = "问".repeat(4001);
        String tooLarge = "x".repeat(70_000);
        return Stream.of(
            Arguments.of("empty message", "{\"userId\":\"u\",\"message\":\"\"}", 400, "invalid-request", "message must not be empty"),
            Arguments.of("blank message", "{\"userId\":\"u\",\"message\":\"   \"}", 400, "invalid-request", "message must not be empty"),
            Arguments.of("missing user", "{\"message\":\"hi\"}", 400, "invalid-request", "userId is required"),
            Arguments.of("oversized message", "{\"userId\":\"u\",\"message\":\"" + tooLong + "\"}", 400, "invalid-request", "at most 4000 characters"),
            Arguments.of("malformed JSON", "{\"userId\":\"u\",\"message\":", 400, "malformed-request", "not valid JSON"),
            Arguments.of("not JSON at all", "hello", 400, "malformed-request", "not valid JSON"),
            Arguments.of("session id of the wrong type", "{\"userId\":\"u\",\"sessionId\":42,\"message\":\"hi\"}", 400, "malformed-request", "'sessionId'"),
            Arguments.of("session id not a UUID", "{\"userId\":\"u\",\"sessionId\":\"abc\",\"message\":\"hi\"}", 400, "malformed-request", "'sessionId'"),
            Arguments.of("message of the wrong type", "{\"userId\":\"u\",\"message\":{\"text\":\"hi\"}}", 400, "malformed-request", "'message'"),
            Arguments.of("body over the size limit", "{\"userId\":\"u\",\"message\":\"" + tooLarge + "\"}", 413, "payload-too-large", "limit is 65536 bytes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void isRefusedWithAProblemAndNothingIsStored(String name, String body, int status, String type, String detail) {
        int messagesBefore = messageCount();

        HttpResponse<String> response = new Http(port, apiKeys.create("bad-input-test", ClientTier.STANDARD).key()).postJson("/api/v1/chat", body);

        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type").orElse(""))
            .startsWith("application/problem+json");
        JsonNode problem = json.readTree(response.body());
        assertThat(problem.get("type").asText()).isEqualTo("https://sluice.dev/problems/" + type);
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("detail").asText()).contains(detail);
        assertThat(messageCount()).isEqualTo(messagesBefore);
    }

    @org.junit.jupiter.api.Test
    void aChunkedBodyOverTheLimitIsRefusedAndOneUnderItIsAnswered() {
        Http http = new Http(port, apiKeys.create("chunked-test", ClientTier.STANDARD).key());
        int messagesBefore = messageCount();

        HttpResponse<String> tooLarge = http.postJsonChunked("/api/v1/chat",
            "{\"userId\":\"u\",\"message\":\"" + "x".repeat(70_000) + "\"}");
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(json.readTree(tooLarge.body()).get("type").asText())
            .isEqualTo("https://sluice.dev/problems/payload-too-large");
        assertThat(messageCount()).isEqualTo(messagesBefore);

        HttpResponse<String> small = http.postJsonChunked("/api/v1/chat", "{\"userId\":\"u\",\"message\":\"怎么查物流\"}");
        assertThat(small.statusCode()).isEqualTo(200);
    }

    private int messageCount() {
        return jdbc.sql("SELECT count(*) FROM conversation_message").query(Integer.class).single();
    }
}
