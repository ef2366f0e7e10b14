package io.sluice.app.chat;

import static io.sluice.app.support.ChatRequests.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.auth.IssuedKey;
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
 * Issue 18 items 4 and 5 through the whole application (real PostgreSQL, Redis, Lucene, ONNX, gateway; the
 * mock as the provider):
 * <ul>
 *   <li>session memory: a complaint, an order number and what the answer promised at turn 1 are recalled at
 *       turn 8 — beyond the turns the session keeps — into the LLM's prompt, and at F1 into the answer;</li>
 *   <li>fast-mode offer: a stream queued behind a busy slot gets an {@code offer} event; "fast" answers at F2
 *       at once, "keep" waits past its bound for the slot, "defer" gets an F0 ticket; only its client may
 *       answer the offer.</li>
 * </ul>
 * Admission capacity is 1 and every class's bound 1 s, so one slow answer makes the next stream queue.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SessionMemoryAndFastOfferEndToEndTest {

    static final String RUN = UUID.randomUUID().toString();
    @AutoClose
    static final MockProvider MOCK = MockProvider.start(0);
    static final HttpClient SSE = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final String PROMISE = "非常抱歉给您带来不便。我们会为您补发一副新耳机，并发放一张20元优惠券作为补偿。";
    static final String RETURNS = "退货的运费谁来出";

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.chatAgainst(registry, RUN, MOCK);
        registry.add("sluice.batch.jobs.work-queue-drain.enabled", () -> "false");
        registry.add("sluice.chat.cache.enabled", () -> "false");
        registry.add("sluice.chat.admission.capacity", () -> "1");
        registry.add("sluice.chat.admission.max-wait.S", () -> "1s");
        registry.add("sluice.chat.admission.max-wait.A", () -> "1s");
        registry.add("sluice.chat.admission.max-wait.B", () -> "1s");
        registry.add("sluice.chat.fast-offer.threshold", () -> "1ms");   // every queued stream is offered
        registry.add("sluice.chat.fast-offer.undecided-wait", () -> "20s");
        registry.add("sluice.chat.fast-offer.keep-wait", () -> "40s");
        // the slot holder's answer takes 12 s: budgets long enough that it is an answer, not a time-out
        registry.add("sluice.chat.answer-budget", () -> "30s");
        registry.add("sluice.gateway.lanes.interactive.budget", () -> "30s");
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
    PriorityAdmission admission;

    @Autowired
    ObjectMapper json;

    Http http;

    @BeforeEach
    void setUp() {
        MOCK.scenario(Scenario.healthy().withFixedLatency(20));
        http = Http.newClient(port, apiKeys, "memory-" + RUN, ClientTier.STANDARD);
        TestServices.awaitKnowledge(bootstrap);
        degradation.pin(DegradationLevel.L0, "memory-test", "memory and offers at L0");
        await().atMost(Duration.ofSeconds(60)).until(() -> admission.inFlight() == 0 && admission.queueLength() == 0);
    }

    @AfterEach
    void tearDown() {
        degradation.unpin("memory-test");
        MOCK.scenario(Scenario.healthy());
    }

    String body(String user, String sessionId, String message) {
        return "{\"userId\":\"" + user + "\"," + (sessionId == null ? "" : "\"sessionId\":\"" + sessionId + "\",")
            + "\"message\":\"" + message + "\"}";
    }

    // --- item 4: memory beyond the last turns -------------------------------------------------------------

    @Test
    void whatWasPromisedAtTurnOneIsRecalledAtTurnEightBeyondTheKeptTurns() {
        String user = "mem-" + UUID.randomUUID();
        MOCK.scenario(Scenario.healthy().withFixedLatency(20).withResponseText(PROMISE));
        JsonNode first = ok(http.postJson("/api/v1/chat", body(user, null, "订单号 2023112233445 的耳机收到就坏了，我要投诉")));
        String session = first.get("sessionId").asText();
        assertThat(first.get("tier").asText()).as("the promise is the model's answer").isIn("F4", "F3", "F2");
        MOCK.scenario(Scenario.healthy().withFixedLatency(20).withResponseText("好的，已为您查询。"));
        for (String message : List.of("发票怎么开", "怎么修改收货地址", "会员积分怎么用", "支付方式有哪些", RETURNS, "多久发货")) {
            assertThat(ok(http.postJson("/api/v1/chat", body(user, session, message))).get("sessionId").asText())
                .isEqualTo(session);
        }

        // turn 8: 14 messages so far, the session keeps 12 — turn 1 is out of the window, its facts are not
        ok(http.postJson("/api/v1/chat", body(user, session, "上次说给我的补偿券怎么还没到？")));

        List<String> system = new ArrayList<>();
        List<String> history = new ArrayList<>();
        for (JsonNode message : MOCK.lastRequest().get("messages")) {
            (message.get("role").asText().equals("system") ? system : history).add(message.get("content").asText());
        }
        assertThat(String.join("\n", system)).contains("Known from earlier in this conversation").contains("20元优惠券");
        assertThat(history).as("turn 1 is beyond the history the prompt carries")
            .noneMatch(text -> text.contains("2023112233445") || text.contains("补发"));

        // at L3 (F1, no LLM) the matching facts are named after the FAQ answer
        degradation.pin(DegradationLevel.L3, "memory-test", "F1");
        JsonNode f1 = ok(http.postJson("/api/v1/chat", body(user, session, "订单 2023112233445 现在怎么样了")));
        assertThat(f1.get("tier").asText()).isEqualTo("F1");
        assertThat(f1.get("answer").asText()).contains("noted earlier in this conversation").contains("2023112233445");

        // a session of another user has no such memory
        JsonNode stranger = ok(http.postJson("/api/v1/chat", body("other-" + UUID.randomUUID(), null, "订单 2023112233445 现在怎么样了")));
        assertThat(stranger.get("answer").asText()).doesNotContain("noted earlier");
    }

    // --- item 5: the fast-mode offer -------------------------------------------------------------------------

    /** One SSE stream read on its own thread: its events (name → data) as they come. */
    final class EventStream {
        final LinkedBlockingQueue<Map.Entry<String, JsonNode>> events = new LinkedBlockingQueue<>();
        final CompletableFuture<Void> ended;

        EventStream(String body) {
            HttpRequest request = http.streamRequest("/api/v1/chat/stream", body);
            ended = SSE.sendAsync(request, HttpResponse.BodyHandlers.ofLines()).thenAccept(response -> {
                try (Stream<String> lines = response.body()) {
                    String[] name = {null};
                    lines.forEach(line -> {
                        if (line.startsWith("event:")) {
                            name[0] = line.substring(6).trim();
                        } else if (line.startsWith("data:") && name[0] != null) {
                            events.add(Map.entry(name[0], json.readTree(line.substring(5).trim())));
                            name[0] = null;
                        }
                    });
                }
            });
        }

        JsonNode next(String name) throws InterruptedException {
            while (true) {
                Map.Entry<String, JsonNode> event = events.poll(30, TimeUnit.SECONDS);
                assertThat(event).as("event " + name).isNotNull();
                if (event.getKey().equals(name)) {
                    return event.getValue();
                }
                assertThat(event.getKey()).as("before " + name).isIn("queued", "offer", "meta", "token");
            }
        }
    }

    /** A plain answer that holds the one admission slot while the provider takes 12 s (its call is at the mock). */
    CompletableFuture<HttpResponse<String>> holdTheSlot() {
        MOCK.scenario(Scenario.healthy().withFixedLatency(12_000));
        long before = MOCK.counters().requests();
        CompletableFuture<HttpResponse<String>> holder = CompletableFuture.supplyAsync(
            () -> http.postJson("/api/v1/chat", body("holder-" + UUID.randomUUID(), null, RETURNS)));
        await().atMost(Duration.ofSeconds(30)).until(() -> admission.inFlight() == 1 && MOCK.counters().requests() > before);
        return holder;
    }

    HttpResponse<String> choose(String key, String requestId, String choice) {
        return new Http(port, key).postJson("/api/v1/chat/" + requestId + "/offer", "{\"choice\":\"" + choice + "\"}");
    }

    @Test
    void aFastChoiceAnswersAtF2WithoutWaitingForTheSlot() throws Exception {
        CompletableFuture<HttpResponse<String>> holder = holdTheSlot();
        MOCK.scenario(Scenario.healthy().withFixedLatency(20));   // the holder's call is already at the mock
        long calls = MOCK.counters().requests();
        EventStream stream = new EventStream(body("fast-" + UUID.randomUUID(), null, RETURNS));

        JsonNode offer = stream.next("offer");
        assertThat(offer.get("choices")).extracting(JsonNode::asText).containsExactly("fast", "keep", "defer");
        assertThat(offer.get("etaMs").asLong()).isPositive();
        assertThat(choose(http.apiKey(), offer.get("requestId").asText(), "fast").statusCode()).isEqualTo(204);

        JsonNode meta = stream.next("meta");
        // F2: the light model's polish (the shadow check may serve the FAQ answer it polished as F1 instead)
        assertThat(meta.get("tier").asText()).isIn("F2", "F1");
        assertThat(meta.get("queueWaitMs").asLong()).as("no wait for the slot after choosing").isLessThan(12_000);
        stream.next("done");
        assertThat(holder.isDone()).as("answered while the slot was still held").isFalse();
        assertThat(MOCK.counters().requests()).as("one F2 call to the light model, past the admission queue")
            .isEqualTo(calls + 1);
        assertThat(choose(http.apiKey(), offer.get("requestId").asText(), "fast").statusCode())
            .as("an offer is answered once").isEqualTo(404);
        ok(holder.get(30, TimeUnit.SECONDS));
    }

    @Test
    void keepingThePlaceWaitsPastTheBoundForAnLlmAnswer() throws Exception {
        CompletableFuture<HttpResponse<String>> holder = holdTheSlot();
        EventStream stream = new EventStream(body("keep-" + UUID.randomUUID(), null, RETURNS));

        JsonNode offer = stream.next("offer");
        MOCK.scenario(Scenario.healthy().withFixedLatency(20));   // the holder's call keeps its 12 s
        assertThat(choose(http.apiKey(), offer.get("requestId").asText(), "keep").statusCode()).isEqualTo(204);

        JsonNode meta = stream.next("meta");
        assertThat(meta.get("tier").asText()).isIn("F4", "F3", "F2");
        assertThat(meta.get("queueWaitMs").asLong()).as("past its 1 s bound").isGreaterThan(1000);
        assertThat(holder.isDone()).isTrue();
        stream.next("done");
    }

    @Test
    void aDeferChoiceGetsATicketAndOnlyTheAskingClientMayChoose() throws Exception {
        CompletableFuture<HttpResponse<String>> holder = holdTheSlot();
        EventStream stream = new EventStream(body("defer-" + UUID.randomUUID(), null, RETURNS));
        JsonNode offer = stream.next("offer");
        String requestId = offer.get("requestId").asText();
        IssuedKey stranger = apiKeys.create("memory-stranger-" + RUN, ClientTier.STANDARD);

        assertThat(choose(stranger.key(), requestId, "defer").statusCode()).isEqualTo(404);
        assertThat(choose(http.apiKey(), UUID.randomUUID().toString(), "defer").statusCode()).isEqualTo(404);
        assertThat(choose(http.apiKey(), requestId, "later").statusCode()).isEqualTo(400);
        assertThat(choose(http.apiKey(), requestId, "defer").statusCode()).isEqualTo(204);

        JsonNode meta = stream.next("meta");
        assertThat(meta.get("tier").asText()).isEqualTo("F0");
        assertThat(meta.get("ticket").asText()).isNotBlank();
        stream.next("done");
        ok(holder.get(30, TimeUnit.SECONDS));
    }
}
