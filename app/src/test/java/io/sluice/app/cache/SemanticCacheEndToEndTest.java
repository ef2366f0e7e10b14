package io.sluice.app.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.knowledge.sample.KnowledgeBootstrap;
import io.sluice.mock.MockProvider;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The semantic cache inside the running chat pipeline: an LLM answer is cached, the same question
 * asked again is served from the cache without a provider call, a close but different question is not.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SemanticCacheEndToEndTest {

    static final String RUN = UUID.randomUUID().toString();
    static final MockProvider MOCK = MockProvider.start(0);

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, RUN);
        registry.add("sluice.llm.base-url", MOCK::baseUrl);
        registry.add("sluice.degradation.auto", () -> "false");
    }

    @AfterAll
    static void stopMock() {
        MOCK.close();
    }

    @LocalServerPort
    int port;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    ObjectMapper json;

    @Autowired
    KnowledgeBootstrap bootstrap;

    JsonNode ask(Http http, String message) {
        HttpResponse<String> response = http.postJson("/api/v1/chat",
            "{\"userId\":\"u-" + UUID.randomUUID() + "\",\"message\":\"" + message + "\"}");
        assertThat(response.statusCode()).isEqualTo(200);
        return json.readTree(response.body());
    }

    @Test
    void aRepeatedQuestionIsServedFromTheCacheWithoutCallingTheProviderAndADifferentOneIsNot() {
        // the first answer must be made by the LLM: not while the local index is still being rebuilt
        await().atMost(Duration.ofMinutes(3)).until(() -> "ready".equals(bootstrap.status()));
        Http http = new Http(port, apiKeys.create("cache-" + UUID.randomUUID(), ClientTier.VIP).key());

        ask(http, "how do I change my delivery address"); // a fresh context's first answer is cold (model, index, JIT)
        JsonNode first = ask(http, "退款多久到账？");
        long requestsAfterFirst = MOCK.counters().requests();
        JsonNode again = ask(http, "退款多久到账");
        long requestsAfterRepeat = MOCK.counters().requests();
        JsonNode different = ask(http, "退款不到账怎么办");

        assertThat(first.path("cached").asBoolean()).isFalse();
        assertThat(first.path("tier").asString()).isIn("F4", "F3", "F2");
        assertThat(again.path("cached").asBoolean()).isTrue();
        assertThat(again.path("similarity").asDouble()).isEqualTo(1.0);
        assertThat(again.path("answer").asString()).isEqualTo(first.path("answer").asString());
        assertThat(again.path("tier").asString()).isEqualTo(first.path("tier").asString());
        assertThat(different.path("cached").asBoolean()).isFalse();
        assertThat(requestsAfterFirst).isPositive();
        assertThat(requestsAfterRepeat).isEqualTo(requestsAfterFirst);
    }
}
