package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ApiScope;
import io.sluice.api.auth.ClientTier;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.json.JsonMapper;

/**
 * M3: one key spreading requests over many userIds used the whole global rate and the other clients got
 * 429 scope=global; the OpenAI {@code user} field took 10,000 characters. Now each active client has its
 * share (max(rate / active clients, floor)), and userId / user are bounded. The platform's rate is set low
 * here (20 req/s) so the flood is cheap.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"sluice.ingress.rate.global.max-rate=20", "sluice.ingress.rate.global.min-rate=20",
        "sluice.ingress.rate.client.floor=2"})
class M3ClientShareTest {

    static final String RUN = "security-share-" + UUID.randomUUID().toString().substring(0, 8);

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, RUN);
    }

    @LocalServerPort
    int port;

    @Autowired
    ApiKeys apiKeys;

    @Test
    void aFloodingClientGetsItsShareAndTheOtherClientIsStillServed() throws Exception {
        Http flooder = new Http(port, apiKeys.create("flooder-" + RUN, ClientTier.STANDARD).key());
        Http quiet = new Http(port, apiKeys.create("quiet-" + RUN, ClientTier.STANDARD).key());
        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicInteger flooderClientRefusals = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int t = 0; t < 4; t++) {
                pool.submit(() -> {
                    while (flooding.get()) {
                        HttpResponse<String> r = flooder.postJson("/api/v1/chat", body("flood-" + UUID.randomUUID()));
                        if (r.statusCode() == 429 && r.body().contains("\"scope\":\"client\"")) {
                            flooderClientRefusals.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> flooderClientRefusals.get() > 10);
            quiet.postJson("/api/v1/chat", body("quiet-warmup")); // the quiet client becomes active: shares halve

            // then 8 requests at 3 per second (well within its share of 10/s), paced by a scheduler
            List<Integer> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicInteger sent = new AtomicInteger();
            var pacer = Executors.newSingleThreadScheduledExecutor();
            pacer.scheduleAtFixedRate(() -> {
                if (sent.getAndIncrement() < 8) {
                    statuses.add(quiet.postJson("/api/v1/chat", body("quiet-" + UUID.randomUUID())).statusCode());
                }
            }, 500, 330, java.util.concurrent.TimeUnit.MILLISECONDS);
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> statuses.size() == 8);
            } finally {
                pacer.shutdownNow();
            }
            assertThat(statuses).as("the quiet client is served while the other floods").containsOnly(200);
        } finally {
            flooding.set(false);
            pool.shutdown();
        }
    }

    @Test
    void userIdsAndTheOpenAiUserFieldAreBounded() {
        Http http = new Http(port, apiKeys.create("bounds-" + RUN, ClientTier.STANDARD,
            java.util.EnumSet.of(ApiScope.CHAT, ApiScope.OPENAI)).key());
        HttpResponse<String> longUser = http.postJson("/api/v1/chat", body("u".repeat(129)));
        assertThat(longUser.statusCode()).isEqualTo(400);
        HttpResponse<String> openai = http.postJson("/v1/chat/completions", JsonMapper.shared().writeValueAsString(Map.of(
            "model", "primary", "user", "x".repeat(10_000),
            "messages", List.of(Map.of("role", "user", "content", "退款多久到账")))));
        assertThat(openai.statusCode()).isEqualTo(400);
        assertThat(JsonMapper.shared().readTree(openai.body()).at("/error/param").asString()).isEqualTo("user");
    }

    private static String body(String user) {
        return JsonMapper.shared().writeValueAsString(Map.of("userId", user, "message", "怎么查物流"));
    }
}
