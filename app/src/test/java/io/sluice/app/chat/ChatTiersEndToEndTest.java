package io.sluice.app.chat;

import static io.sluice.app.support.ChatRequests.chat;
import static io.sluice.app.support.ChatRequests.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.auth.IssuedKey;
import io.sluice.app.support.AlertReceiver;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.permit.ClusterPermits;
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
 * The answering tiers end to end: real PostgreSQL + pgvector, Redis, Lucene, the ONNX model and the
 * real governed gateway, with only the LLM provider simulated (the mock, in process, on a free port).
 * The interactive lane has 4 permits, as many as the mock's concurrency cap in the overload test.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ChatTiersEndToEndTest {

    static final String RUN = UUID.randomUUID().toString();
    @AutoClose
    static final MockProvider MOCK = MockProvider.start(0);
    static final int PERMITS = 4;

    static final String REFUND = "退款多久到账";               // A (refund)
    static final String COMPLAINT = "我要投诉，退款太慢了";       // S
    static final String PAYMENT = "付款失败了但是钱被扣了";       // A
    static final String RETURNS = "退货的运费谁来出";             // B

    @AutoClose
    static final AlertReceiver ALERTS = new AlertReceiver();

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.chatAgainst(registry, RUN, MOCK);
        registry.add("sluice.permits.lanes.interactive.permits", () -> PERMITS);
        registry.add("sluice.chat.admission.capacity", () -> PERMITS);
        // short windows so that a provider outage and its recovery play out in seconds, not minutes
        registry.add("sluice.chat.answer-budget", () -> "4s");
        registry.add("sluice.chat.load-window", () -> "3s");
        registry.add("sluice.degradation.up-after", () -> "1s");
        registry.add("sluice.gateway.lanes.interactive.sentinel.open-for", () -> "2s");
        registry.add("sluice.gateway.lanes.interactive.sentinel.stat-interval", () -> "2s");
        registry.add("sluice.gateway.lanes.interactive.budget", () -> "4s");
        registry.add("sluice.batch.jobs.work-queue-drain.enabled", () -> "false");
        // these tests are about tiers: every answer must really be made (the cache has its own tests)
        registry.add("sluice.chat.cache.enabled", () -> "false");
        // these tests are about the tiers a level allows; the F2→F1 shadow check, which may serve an F2's FAQ
        // answer as F1, has its own (FreshnessAndShadowCheckTest, GroundedAnswersEndToEndTest)
        registry.add("sluice.chat.shadow-check.enabled", () -> "false");
        // alerts go to a webhook of the test's own, evaluated every second
        registry.add("sluice.alerting.webhook-url", ALERTS::url);
        registry.add("sluice.alerting.interval", () -> "1s");
        registry.add("sluice.alerting.resend-every", () -> "5s");
    }

    @LocalServerPort
    int port;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    DegradationControl degradation;

    @Autowired
    ClusterPermits permits;

    @Autowired
    KnowledgeBootstrap bootstrap;

    @Autowired
    ObjectMapper json;

    IssuedKey client;
    Http http;

    @BeforeEach
    void setUp() {
        MOCK.scenario(Scenario.healthy().withFixedLatency(20));
        MOCK.reset();
        client = apiKeys.create("tiers-" + RUN, ClientTier.STANDARD);
        http = new Http(port, client.key());
        TestServices.awaitKnowledge(bootstrap);
    }

    @AfterEach
    void tearDown() {
        degradation.unpin("tiers-test");
        MOCK.scenario(Scenario.healthy());
    }

    JsonNode ask(DegradationLevel level, String body) {
        degradation.pin(level, "tiers-test", "pinned by the test");
        return ok(http.postJson("/api/v1/chat", body));
    }

    // --- one tier per level -------------------------------------------------------------------

    @Test
    void atL0TheAnswerIsF4FromVectorRetrievalAndTheFullPromptNamingItsDocumentSources() {
        JsonNode answer = ask(DegradationLevel.L0, chat(REFUND));

        assertThat(answer.get("tier").asText()).isEqualTo("F4");
        assertThat(answer.get("badge").asText()).isEqualTo("AI analysis");
        assertThat(answer.get("answer").asText()).contains("tok0");
        assertThat(answer.get("sources")).isNotEmpty().hasSizeLessThanOrEqualTo(5);
        assertThat(MOCK.counters().served()).isEqualTo(1);
        // the level's sampling knobs for the interactive lane reached the provider (application.yml, L0)
        assertThat(MOCK.lastRequest().get("temperature").asDouble()).isEqualTo(0.3);
        assertThat(MOCK.lastRequest().get("top_p").asDouble()).isEqualTo(0.9);
    }

    @Test
    void atL1TheAnswerIsLeanF3WithAtMostTwoSources() {
        JsonNode answer = ask(DegradationLevel.L1, chat(REFUND));

        assertThat(answer.get("tier").asText()).isEqualTo("F3");
        assertThat(answer.get("sources")).isNotEmpty().hasSizeLessThanOrEqualTo(2);
        assertThat(answer.get("degradationLevel").asText()).isEqualTo("L1");
    }

    @Test
    void atL2TheFaqAnswerIsPolishedAtF2AndLaneBIsAnsweredAtF1WithoutTheLlm() {
        JsonNode fast = ask(DegradationLevel.L2, chat(REFUND));
        long calls = MOCK.counters().requests();
        JsonNode laneB = ask(DegradationLevel.L2, chat(RETURNS));

        assertThat(fast.get("tier").asText()).isEqualTo("F2");
        assertThat(fast.get("badge").asText()).isEqualTo("fast answer");
        assertThat(fast.get("sources").get(0).get("kind").asText()).isEqualTo("faq");
        // L2 answers more deterministically than L0 (application.yml: interactive 0.1 / 0.8)
        assertThat(MOCK.lastRequest().get("temperature").asDouble()).isEqualTo(0.1);
        assertThat(MOCK.lastRequest().get("top_p").asDouble()).isEqualTo(0.8);
        assertThat(laneB.get("priority").asText()).isEqualTo("B");
        assertThat(laneB.get("tier").asText()).isEqualTo("F1");
        assertThat(MOCK.counters().requests()).isEqualTo(calls);
    }

    @Test
    void atL3EveryAnswerIsF1AndTheProviderIsNotCalled() {
        JsonNode answer = ask(DegradationLevel.L3, chat(COMPLAINT));

        assertThat(answer.get("tier").asText()).isEqualTo("F1");
        assertThat(answer.get("badge").asText()).isEqualTo("automatic answer");
        assertThat(MOCK.counters().requests()).isZero();
    }

    @Test
    void aClientThatAcceptsDeferralGetsAnF0TicketWhoseTaskCanBeRead() {
        JsonNode deferred = ask(DegradationLevel.L2, chat(RETURNS, true));

        assertThat(deferred.get("tier").asText()).isEqualTo("F0");
        assertThat(deferred.get("badge").asText()).isEqualTo("answer later");
        String ticket = deferred.get("ticket").asText();
        assertThat(deferred.get("statusUrl").asText()).isEqualTo("/api/v1/tasks/" + ticket);
        JsonNode task = ok(http.get("/api/v1/tasks/" + ticket));
        assertThat(task.get("state").asText()).isEqualTo("QUEUED");
        assertThat(MOCK.counters().requests()).isZero();
    }

    // --- provider trouble ---------------------------------------------------------------------

    @Test
    void providerDownAnswersContinueWithinBudgetAndReturnToF4ByThemselvesAfterRecovery() {
        await().atMost(Duration.ofSeconds(30)).until(() -> degradation.level() == DegradationLevel.L0);
        ALERTS.clear();
        MOCK.scenario(Scenario.healthy().withErrors(1.0, 500));

        // enough answers for the error ratio to count as evidence (ChatSignals.MIN_SAMPLES)
        List<String> tiers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            long started = System.nanoTime();
            JsonNode answer = ok(http.postJson("/api/v1/chat", chat(REFUND)));
            long ms = (System.nanoTime() - started) / 1_000_000;
            assertThat(ms).as("answer time while the provider is down").isLessThan(15_000);
            tiers.add(answer.get("tier").asText());
        }
        assertThat(tiers).allSatisfy(tier -> assertThat(tier).isIn("F3", "F1"));
        await().atMost(Duration.ofSeconds(20)).until(() -> degradation.level() != DegradationLevel.L0);
        // the operator hears of it: the "degraded" alert fires at the webhook
        await().atMost(Duration.ofSeconds(20)).until(() -> degradedNotices().contains("firing"));

        MOCK.scenario(Scenario.healthy().withFixedLatency(20));
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
            assertThat(ok(http.postJson("/api/v1/chat", chat(REFUND))).get("tier").asText()).isEqualTo("F4"));
        assertThat(degradation.level()).isEqualTo(DegradationLevel.L0);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
            assertThat(degradedNotices()).as("after recovery the alert resolves").endsWith("resolved"));
    }

    /** The statuses of the "degraded" alert in the webhook's notifications, oldest first. */
    List<String> degradedNotices() {
        List<String> statuses = new ArrayList<>();
        for (String body : ALERTS.bodies()) {
            for (JsonNode alert : json.readTree(body).get("alerts")) {
                if ("degraded".equals(alert.get("labels").get("alertname").asText())) {
                    statuses.add(alert.get("status").asText());
                }
            }
        }
        return statuses;
    }

    // --- foundation: one permit per LLM call, released after success and failure ---------------

    @Test
    void anLlmAnswerHoldsExactlyOneInteractivePermitDuringTheProviderCallAndReleasesIt() throws Exception {
        assertThat(permits.inUse("interactive")).isZero();
        MOCK.scenario(Scenario.healthy().withFixedLatency(1500));
        degradation.pin(DegradationLevel.L2, "tiers-test", "one F2 call");

        AtomicInteger most = new AtomicInteger();
        CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(() ->
            http.postJson("/api/v1/chat", chat(REFUND)));
        // sample the permits in use until the call completes
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            most.accumulateAndGet(permits.inUse("interactive"), Math::max);
            return slow.isDone();
        });
        assertThat(ok(slow.get()).get("tier").asText()).isEqualTo("F2");
        assertThat(most.get()).as("permits in use during the provider call").isEqualTo(1);
        assertThat(permits.inUse("interactive")).isZero();

        MOCK.scenario(Scenario.healthy().withHang(true));
        most.set(0);
        CompletableFuture<HttpResponse<String>> hung = CompletableFuture.supplyAsync(() ->
            http.postJson("/api/v1/chat", chat(REFUND)));
        // sample the permits in use until the call completes
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            most.accumulateAndGet(permits.inUse("interactive"), Math::max);
            return hung.isDone();
        });
        assertThat(ok(hung.get()).get("tier").asText()).isEqualTo("F1");
        assertThat(most.get()).as("permits in use during the hung call").isEqualTo(1);
        assertThat(permits.inUse("interactive")).isZero();
    }

    // --- streaming ----------------------------------------------------------------------------

    HttpRequest streamRequest(String body) {
        return http.streamRequest("/api/v1/chat/stream", body);
    }

    static final HttpClient SSE = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** The provider client's first stream pays its start-up (seconds on a loaded machine): not under test. */
    void warmUpStreaming() throws Exception {
        SSE.send(streamRequest(chat(REFUND)), HttpResponse.BodyHandlers.ofString());
        await().atMost(Duration.ofSeconds(10)).until(() -> permits.inUse("interactive") == 0);
    }

    static List<String> events(String body) {
        return body.lines().filter(line -> line.startsWith("event:")).map(line -> line.substring(6)).toList();
    }

    @Test
    void aStreamCarriesTheProvidersTokensOneEventEachBetweenMetaAndDone() throws Exception {
        degradation.pin(DegradationLevel.L0, "tiers-test", "stream at F4");
        warmUpStreaming();
        MOCK.scenario(Scenario.healthy().withCompletionTokens(8).withInterTokenDelay(10));

        HttpResponse<String> response = SSE.send(streamRequest(chat(REFUND)), HttpResponse.BodyHandlers.ofString());

        List<String> events = events(response.body());
        assertThat(events.get(0)).isEqualTo("meta");
        assertThat(events.subList(1, events.size() - 1)).hasSizeGreaterThan(1).containsOnly("token");
        assertThat(events.get(events.size() - 1)).isEqualTo("done");
        assertThat(response.body()).contains("\"tier\":\"F4\"", "tok0", "tok7");
        assertThat(permits.inUse("interactive")).isZero();
    }

    @Test
    void aStreamTheProviderCutsAfterItsFirstTokensEndsWithAStreamBrokenErrorAndNoDone() throws Exception {
        degradation.pin(DegradationLevel.L0, "tiers-test", "stream at F4");
        warmUpStreaming();
        MOCK.scenario(Scenario.healthy().withCompletionTokens(8).withInterTokenDelay(10).withCutStreamAfter(3));
        MOCK.reset();

        HttpResponse<String> response = SSE.send(streamRequest(chat(REFUND)), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        List<String> events = events(response.body());
        assertThat(events).as(response.body()).startsWith("meta", "token").endsWith("error").doesNotContain("done");
        assertThat(events.subList(1, events.size() - 1)).as("tokens the customer already saw").containsOnly("token");
        assertThat(response.body()).contains("tok0", "tok2").doesNotContain("tok3");
        JsonNode error = json.readTree(lastData(response.body()));
        assertThat(error.path("status").asInt()).isEqualTo(502);
        assertThat(error.path("type").asText()).isEqualTo("stream-broken");
        assertThat(MOCK.counters().cut()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> permits.inUse("interactive") == 0);
    }

    /** The data line of the last event of an SSE body. */
    static String lastData(String body) {
        List<String> data = body.lines().filter(line -> line.startsWith("data:")).toList();
        return data.get(data.size() - 1).substring(5);
    }

    @Test
    void clientsThatDisconnectMidStreamFreeTheirGatewayPermits() throws Exception {
        degradation.pin(DegradationLevel.L0, "tiers-test", "long streams");
        MOCK.scenario(Scenario.healthy().withCompletionTokens(200).withInterTokenDelay(100));

        for (int i = 0; i < 3; i++) {
            // the previous client's disconnect is noticed asynchronously: its permit must come back first
            await().atMost(Duration.ofSeconds(15)).until(() -> permits.inUse("interactive") == 0);
            HttpResponse<InputStream> response = SSE.send(streamRequest(chat(REFUND)),
                HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null && !line.equals("event:token")) {
                    // read up to the first token
                }
                assertThat(line).isEqualTo("event:token");
                assertThat(permits.inUse("interactive")).isEqualTo(1);
            }   // the client goes away mid-stream
        }

        await().atMost(Duration.ofSeconds(15)).until(() -> permits.inUse("interactive") == 0);
    }

    // --- overload -----------------------------------------------------------------------------

    record Result(String priority, int status, String tier, long waitMs, boolean retryAfter) {
    }

    @Test
    void underFiveTimesTheProvidersConcurrencyEveryRequestGetsATierOrARefusalWithRetryAfter() throws Exception {
        int cap = PERMITS;
        MOCK.scenario(Scenario.healthy().withFixedLatency(400).withConcurrencyCap(cap));
        degradation.pin(DegradationLevel.L0, "tiers-test", "admission under overload");
        String[] messages = {COMPLAINT, PAYMENT, RETURNS, RETURNS, PAYMENT};
        List<Result> results = new CopyOnWriteArrayList<>();
        HttpClient httpClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long until = System.nanoTime() + Duration.ofSeconds(12).toNanos();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 5 * cap; w++) {
            String message = messages[w % messages.length];
            Thread worker = new Thread(() -> {
                while (System.nanoTime() < until) {
                    try {
                        HttpResponse<String> response = httpClient.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + port + "/api/v1/chat"))
                            .header("Content-Type", "application/json")
                            .header("Authorization", "Bearer " + client.key())
                            .POST(HttpRequest.BodyPublishers.ofString(chat(message))).build(),
                            HttpResponse.BodyHandlers.ofString());
                        JsonNode body = json.readTree(response.body());
                        results.add(new Result(body.has("priority") ? body.get("priority").asText() : "-",
                            response.statusCode(), body.has("tier") ? body.get("tier").asText() : null,
                            body.has("queueWaitMs") ? body.get("queueWaitMs").asLong() : 0,
                            response.headers().firstValue("Retry-After").isPresent()));
                    } catch (Exception e) {
                        results.add(new Result("-", -1, null, 0, false));
                    }
                }
            });
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }

        assertThat(results).hasSizeGreaterThan(40);
        assertThat(results).allSatisfy(r -> {
            assertThat(r.status()).as("status").isIn(200, 429, 503);
            if (r.status() == 200) {
                assertThat(r.tier()).isIn("F4", "F3", "F2", "F1", "F0");
            } else {
                assertThat(r.retryAfter()).as("Retry-After on a refusal").isTrue();
            }
        });
        assertThat(MOCK.counters().maxConcurrentSeen()).isLessThanOrEqualTo(cap);
        assertThat(MOCK.counters().rejected()).as("429s sent by the provider").isZero();
        Map<String, Long> p95 = new ConcurrentHashMap<>();
        for (String priority : List.of("S", "A", "B")) {
            long[] waits = results.stream().filter(r -> r.status() == 200 && r.priority().equals(priority))
                .mapToLong(Result::waitMs).sorted().toArray();
            assertThat(waits).as("answers of class " + priority).isNotEmpty();
            p95.put(priority, waits[Math.max(0, (int) Math.ceil(waits.length * 0.95) - 1)]);
        }
        System.out.printf("overload: %d requests, p95 wait S=%d A=%d B=%d ms, tiers=%s, provider max concurrent=%d%n",
            results.size(), p95.get("S"), p95.get("A"), p95.get("B"),
            results.stream().collect(java.util.stream.Collectors.groupingBy(r -> r.status() + "/" + r.tier(),
                java.util.stream.Collectors.counting())), MOCK.counters().maxConcurrentSeen());
        assertThat(p95.get("S")).isLessThan(p95.get("A"));
        assertThat(p95.get("A")).isLessThan(p95.get("B"));
        assertThat(p95.get("B")).as("no B request waits beyond its bound (4 s) plus slack").isLessThan(6_000);
        await().atMost(Duration.ofSeconds(10)).until(() -> permits.inUse("interactive") == 0);
    }

    // --- issue 13: an operator's FAQ through the documented APIs, the relevance gate, language ---------

    @Test
    void anImportedEnglishFaqAnswersEnglishQuestionsByKeyAndOffTopicQuestionsGetTheHonestNoAnswer() throws Exception {
        java.nio.file.Path datasets = java.nio.file.Path.of("").toAbsolutePath();
        while (!java.nio.file.Files.isDirectory(datasets.resolve("knowledge/src/test/resources/datasets"))) {
            datasets = datasets.getParent();
        }
        datasets = datasets.resolve("knowledge/src/test/resources/datasets");
        IssuedKey operator = apiKeys.create("operator-" + RUN, ClientTier.STANDARD,
            java.util.EnumSet.of(io.sluice.api.auth.ApiScope.ADMIN));
        Http admin = new Http(port, operator.key());
        String entries = java.nio.file.Files.readString(datasets.resolve("faq-en/entries.jsonl"));
        HttpResponse<String> imported = admin.send("POST", "/api/v1/knowledge/faq/import", entries,
            "Content-Type", "application/x-ndjson");
        JsonNode result = ok(imported);
        assertThat(result.get("created").asInt() + result.get("updated").asInt()).isEqualTo(64);
        assertThat(ok(admin.get("/api/v1/knowledge/faq/snapshots")).get("current").get("version").asLong())
            .isEqualTo(result.get("snapshotVersion").asLong());
        HttpResponse<String> bad = admin.send("POST", "/api/v1/knowledge/faq/import",
            "{\"key\":\"x-1\",\"question\":\"secret question\",\"answer\":\"\"}", "Content-Type", "application/x-ndjson");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("entry 1").doesNotContain("secret question");

        JsonNode f1 = ask(DegradationLevel.L3, chat("How long do I have to return something?"));
        assertThat(f1.get("tier").asText()).isEqualTo("F1");
        assertThat(f1.get("sources").get(0).get("id").asText()).isEqualTo("ret-02");
        assertThat(f1.get("answer").asText()).startsWith("You have 30 days");

        JsonNode hit = ok(admin.postJson("/api/v1/knowledge/hit-test",
            "{\"query\":\"How long do I have to return something?\",\"level\":\"L2\"}"));
        assertThat(hit.get("faq").get("key").asText()).isEqualTo("ret-02");
        assertThat(hit.get("language").asText()).isEqualTo("en");
        assertThat(hit.get("tiers")).isNotEmpty();
        assertThat(hit.get("perLevel")).hasSize(4);
        assertThat(hit.get("perLevel").get(3).get("chatTier").asText()).isEqualTo("F1");

        // the operator calibrates the relevance bars from labelled tune queries and off-topic questions
        StringBuilder tune = new StringBuilder();
        tune.append(java.nio.file.Files.readString(datasets.resolve("faq-en/queries-tune.jsonl")));
        tune.append(java.nio.file.Files.readString(datasets.resolve("ood/ood-tune.jsonl")));
        JsonNode calibrated = ok(admin.send("POST", "/api/v1/semantics/relevance/calibrations?force=true", tune.toString(),
            "Content-Type", "application/x-ndjson"));
        assertThat(calibrated.get("activated").asBoolean()).isTrue();
        try {
            List<String> offTopic = List.of("Who painted the Mona Lisa?", "What is the speed of light?",
                "Give me a recipe for pancakes", "How do volcanoes form?", "What is the longest river in the world?");
            int honest = 0;
            for (String question : offTopic) {
                boolean everyLevel = true;
                for (DegradationLevel level : DegradationLevel.values()) {
                    JsonNode none = ask(level, chat(question));
                    everyLevel &= none.get("answer").asText().contains("no answer") && none.get("sources").isEmpty();
                }
                honest += everyLevel ? 1 : 0;
            }
            assertThat(honest).as("off-topic questions with the honest no-answer at every level").isGreaterThanOrEqualTo(4);
            assertThat(ok(admin.get("/api/v1/semantics/relevance")).get("version").asLong())
                .isEqualTo(calibrated.get("version").asLong());
        } finally {
            ok(admin.send("POST", "/api/v1/semantics/relevance/rollback", null));
        }

        StringBuilder labelled = new StringBuilder("query,key\n");
        for (String line : java.nio.file.Files.readAllLines(datasets.resolve("faq-en/queries-heldout.jsonl")).subList(0, 12)) {
            JsonNode q = json.readTree(line);
            labelled.append('"').append(q.get("query").asText()).append("\",").append(q.get("key").asText()).append('\n');
        }
        labelled.append("What is the capital of France?,\nWho painted the Mona Lisa?,\n");
        JsonNode report = ok(admin.send("POST", "/api/v1/semantics/evaluations/faq-queries", labelled.toString(),
            "Content-Type", "text/csv"));
        assertThat(report.get("kind").asText()).isEqualTo("faq-queries");
        assertThat(report.get("items").asInt()).isEqualTo(14);
        assertThat(report.get("metrics").get("hit@5").asDouble()).isGreaterThan(0.5);
        assertThat(report.get("metrics").has("out-of-domain-no-answer")).isTrue();
        assertThat(ok(admin.get("/api/v1/semantics/evaluations/faq-queries/latest")).get("items").asInt()).isEqualTo(14);
    }
}
