package io.sluice.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class MockProviderTest {

    private static final String BODY = """
        {"model":"m1","max_tokens":8,"messages":[{"role":"user","content":"12345678"}]}""";

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();
    private MockProvider mock;

    @BeforeEach
    void start() {
        mock = MockProvider.start(0);
    }

    @AfterEach
    void stop() {
        mock.close();
    }

    @Test
    void answersAPlainCompletionInTheOpenAiFormatWithUsage() throws Exception {
        HttpResponse<String> response = post(BODY);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json.readTree(response.body());
        assertThat(body.path("choices").path(0).path("message").path("content").asString()).startsWith("tok0 ");
        assertThat(body.path("choices").path(0).path("finish_reason").asString()).as("max_tokens 8 cut the 16-token answer").isEqualTo("length");
        assertThat(body.path("usage").path("prompt_tokens").asInt()).isEqualTo(2);
        assertThat(body.path("usage").path("completion_tokens").asInt()).isEqualTo(8);
        assertThat(mock.counters().served()).isEqualTo(1);
        assertThat(mock.counters().tokens()).isEqualTo(10);
    }

    @Test
    void streamsOpenAiChunksEndingWithFinishReasonUsageAndDone() throws Exception {
        HttpResponse<String> response = post("""
            {"model":"m1","max_tokens":3,"stream":true,"stream_options":{"include_usage":true},
             "messages":[{"role":"user","content":"hi"}]}""");

        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream");
        List<String> events = response.body().lines().filter(l -> l.startsWith("data: ")).toList();
        assertThat(events).hasSize(1 + 3 + 1 + 1 + 1);
        assertThat(events.get(1)).contains("\"delta\":{\"content\":\"tok0 \"}");
        assertThat(events.get(4)).contains("\"finish_reason\":\"length\"");
        assertThat(events.get(5)).contains("\"usage\"");
        assertThat(events.get(6)).isEqualTo("data: [DONE]");
    }

    @Test
    void aCutStreamEndsWithoutFinishReasonOrDone() throws Exception {
        mock.scenario(Scenario.healthy().withCutStreamAfter(2));

        HttpResponse<String> response = post("""
            {"model":"m1","max_tokens":8,"stream":true,"messages":[{"role":"user","content":"hi"}]}""");

        assertThat(response.body()).doesNotContain("[DONE]").doesNotContain("\"stop\"");
        assertThat(mock.counters().cut()).isEqualTo(1);
    }

    @Test
    void answers429AboveTheConcurrencyCapAndCountsTheConcurrencyItSaw() {
        mock.scenario(Scenario.healthy().withFixedLatency(400).withConcurrencyCap(2));

        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            calls.add(http.sendAsync(request(BODY), HttpResponse.BodyHandlers.ofString()));
        }
        List<Integer> statuses = calls.stream().map(CompletableFuture::join).map(HttpResponse::statusCode).toList();

        assertThat(statuses).filteredOn(s -> s == 429).hasSize(2);
        assertThat(statuses).filteredOn(s -> s == 200).hasSize(2);
        assertThat(mock.counters().maxConcurrentSeen()).isEqualTo(4);
        assertThat(mock.counters().rejected()).isEqualTo(2);
    }

    @Test
    void a429CarriesRetryAfterAndRateLimitHeaders() throws Exception {
        mock.scenario(Scenario.healthy().withRateLimited(1.0, 2));

        HttpResponse<String> response = post(BODY);

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().firstValue("retry-after")).hasValue("2");
        assertThat(response.headers().firstValue("x-ratelimit-remaining-requests")).hasValue("0");
        assertThat(response.headers().firstValue("x-ratelimit-remaining-tokens")).isPresent();
        assertThat(response.headers().firstValue("x-ratelimit-reset-requests")).hasValue("2s");
    }

    @Test
    void theTpmCapAnswers429OnceTheWindowIsSpentAndReportsRemainingTokens() throws Exception {
        mock.scenario(Scenario.healthy().withTpmCap(25, 60_000));

        HttpResponse<String> first = post(BODY);
        HttpResponse<String> second = post(BODY);
        HttpResponse<String> third = post(BODY);

        assertThat(first.headers().firstValue("x-ratelimit-remaining-tokens")).hasValue("15");
        assertThat(second.headers().firstValue("x-ratelimit-remaining-tokens")).hasValue("5");
        assertThat(third.statusCode()).isEqualTo(429);
        assertThat(mock.maxTokensInAnyWindow(60_000)).isEqualTo(20);
    }

    @Test
    void errorRateAnswersTheConfiguredServerErrors() throws Exception {
        mock.scenario(Scenario.healthy().withErrors(1.0, 502));

        assertThat(post(BODY).statusCode()).isEqualTo(502);
        assertThat(mock.counters().errors()).isEqualTo(1);
    }

    @Test
    void malformedBodiesAreNotJson() throws Exception {
        mock.scenario(Scenario.healthy().withMalformed(1.0));

        HttpResponse<String> response = post(BODY);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).doesNotEndWith("}");
    }

    @Test
    void theSameSeedGivesTheSameSequenceOfAnswers() throws Exception {
        List<Integer> first = statuses(7);
        mock.reset();
        List<Integer> second = statuses(7);
        mock.reset();
        List<Integer> otherSeed = statuses(8);

        assertThat(first).isEqualTo(second).contains(200, 500);
        assertThat(otherSeed).isNotEqualTo(first);
    }

    @Test
    void aHungCallIsHeldUntilTheScenarioChanges() {
        mock.scenario(Scenario.healthy().withHang(true));
        CompletableFuture<HttpResponse<String>> call = http.sendAsync(request(BODY), HttpResponse.BodyHandlers.ofString());

        await().until(() -> mock.counters().hung() == 1);
        assertThat(call).isNotDone();
        mock.scenario(Scenario.healthy());

        assertThat(call.join().body()).contains("released from hang");
    }

    @Test
    void aHungCallWhoseClientGivesUpNoLongerCountsAsInFlight() throws Exception {
        mock.scenario(Scenario.healthy().withHang(true));
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", mock.port())) {
            byte[] body = BODY.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            socket.getOutputStream().write(body);
            socket.getOutputStream().flush();
            await().until(() -> mock.counters().hung() == 1);
            assertThat(mock.counters().inFlight()).isEqualTo(1);
        } // the client gives up: its connection closes

        await().atMost(java.time.Duration.ofSeconds(5)).until(() -> mock.counters().inFlight() == 0);
        assertThat(mock.counters().disconnected()).isEqualTo(1);
    }

    @Test
    void theControlEndpointOverlaysScenarioFieldsAndRejectsUnknownOnes() throws Exception {
        HttpResponse<String> ok = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mock.port() + "/_mock/scenario"))
            .PUT(HttpRequest.BodyPublishers.ofString("{\"concurrencyCap\":3,\"latency\":\"NORMAL\",\"latencyMs\":5}")).build(),
            HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> bad = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mock.port() + "/_mock/scenario"))
            .PUT(HttpRequest.BodyPublishers.ofString("{\"nope\":1}")).build(), HttpResponse.BodyHandlers.ofString());
        post(BODY);
        HttpResponse<String> counters = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mock.port() + "/_mock/counters")).build(),
            HttpResponse.BodyHandlers.ofString());

        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(mock.scenario().concurrencyCap()).isEqualTo(3);
        assertThat(mock.scenario().latency()).isEqualTo(Scenario.Latency.NORMAL);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("unknown scenario field 'nope'");
        assertThat(json.readTree(counters.body()).path("served").asInt()).isEqualTo(1);
    }

    private List<Integer> statuses(long seed) throws Exception {
        mock.scenario(Scenario.healthy().withSeed(seed).withErrors(0.5, 500));
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            statuses.add(post(BODY).statusCode());
        }
        return statuses;
    }

    private HttpResponse<String> post(String body) throws IOException, InterruptedException {
        return http.send(request(body), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(String body) {
        return HttpRequest.newBuilder(URI.create(mock.baseUrl() + "/chat/completions"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    }
}
