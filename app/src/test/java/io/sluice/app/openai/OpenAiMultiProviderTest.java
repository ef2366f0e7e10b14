package io.sluice.app.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.openai.keys.RequestLog;
import io.sluice.app.support.TestServices;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * /v1 over three providers configured as an operator would (sluice.llm.providers, weighted targets), driven
 * by the official openai-java client and, in the same run, the official npm package: a is down (503), b is
 * rate-limited (429, Retry-After 300 s, longer than the test under any load), c is slow (400 ms) but healthy. Every call, plain or streamed, is
 * answered by c; b gets one request and then nothing until its Retry-After.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OpenAiMultiProviderTest {

    static final String RUN = UUID.randomUUID().toString();
    static final MockProvider A = MockProvider.start(0);
    static final MockProvider B = MockProvider.start(0);
    static final MockProvider C = MockProvider.start(0);

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, RUN);
        A.scenario(Scenario.healthy().withErrors(1.0, 503));
        B.scenario(Scenario.healthy().withRateLimited(1.0, 300));
        C.scenario(Scenario.healthy().withFixedLatency(400));
        List<MockProvider> mocks = List.of(A, B, C);
        for (int i = 0; i < 3; i++) {
            MockProvider mock = mocks.get(i);
            registry.add("sluice.llm.providers[" + i + "].name", () -> List.of("a", "b", "c").get(mocks.indexOf(mock)));
            registry.add("sluice.llm.providers[" + i + "].kind", () -> "openai-compatible");
            registry.add("sluice.llm.providers[" + i + "].base-url", mock::baseUrl);
        }
        registry.add("sluice.gateway.models.primary.name", () -> "gpt-x");
        registry.add("sluice.gateway.models.primary.aliases[0]", () -> "gpt-x");
        String[][] targets = {{"a", "3"}, {"b", "2"}, {"c", "1"}};
        for (int i = 0; i < targets.length; i++) {
            String[] t = targets[i];
            registry.add("sluice.gateway.models.primary.targets[" + i + "].provider", () -> t[0]);
            registry.add("sluice.gateway.models.primary.targets[" + i + "].model", () -> "gpt-x");
            registry.add("sluice.gateway.models.primary.targets[" + i + "].weight", () -> t[1]);
        }
        for (String route : List.of("light", "embedding")) {
            registry.add("sluice.gateway.models." + route + ".targets[0].provider", () -> "c");
            registry.add("sluice.gateway.models." + route + ".targets[0].model", () -> route.equals("light") ? "gpt-x" : "emb");
        }
        registry.add("sluice.degradation.auto", () -> "false");
    }

    @AfterAll
    static void stopMocks() {
        A.close();
        B.close();
        C.close();
    }

    @LocalServerPort
    int port;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    RequestLog requestLog;

    @Test
    void withOneProviderDownOneRateLimitedAndOneSlowEverySdkCallIsAnsweredAndTheRateLimitedOneIsLeftAlone()
            throws Exception {
        java.nio.file.Path module = nodeSdk(); // installed first: b's Retry-After must cover every call below
        var issued = apiKeys.create("multi-" + RUN, ClientTier.VIP);
        OpenAIClient openai = OpenAIOkHttpClient.builder().apiKey(issued.key()).baseUrl("http://127.0.0.1:" + port + "/v1")
            .maxRetries(0).build();
        try {
            // streams first, while a's breaker is still closed: a stream that starts at a or b fails over before its first byte
            for (int i = 0; i < 3; i++) {
                StringBuilder text = new StringBuilder();
                try (StreamResponse<ChatCompletionChunk> stream = openai.chat().completions().createStreaming(
                        ChatCompletionCreateParams.builder().model("primary").addUserMessage("Refund " + i + "?").build())) {
                    stream.stream().forEach(chunk -> chunk.choices().forEach(c -> c.delta().content().ifPresent(text::append)));
                }
                assertThat(text).as("stream %d answered", i).isNotEmpty();
            }
            List<String> providers = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                HttpResponseFor<ChatCompletion> response = openai.chat().completions().withRawResponse().create(
                    ChatCompletionCreateParams.builder().model("gpt-x").addUserMessage("Where is my parcel " + i + "?").build());
                assertThat(response.statusCode()).isEqualTo(200);
                providers.addAll(response.headers().values("X-Sluice-Provider"));
                assertThat(response.parse().choices().get(0).finishReason().asString()).isEqualTo("stop");
            }
            assertThat(providers).hasSize(10).containsOnly("c");

            JsonNode node = node(module, issued.key());
            assertThat(node.path("providers")).hasSize(4).allSatisfy(p -> {
                assertThat(p.path("provider").asString()).isEqualTo("c");
                assertThat(p.path("finish").asString()).isEqualTo("stop");
            });
            assertThat(node.path("stream").path("text").asString()).isNotEmpty();

            assertThat(B.counters().requests()).as("b: one 429, then nothing during its 300 s Retry-After").isEqualTo(1);
            assertThat(A.counters().requests()).as("a: its breaker (5 failures) keeps it out").isLessThanOrEqualTo(6);
            assertThat(requestLog.find(new RequestLog.Filter(issued.client().id(), null, "c", 200, null, null), 100))
                .as("the request log names the provider that answered").hasSizeGreaterThanOrEqualTo(17);
        } finally {
            openai.close();
        }
    }

    private static java.nio.file.Path nodeSdk() throws Exception {
        java.nio.file.Path cache = java.nio.file.Path.of(System.getProperty("user.home"), ".cache", "sluice-openai-node");
        java.nio.file.Path module = cache.resolve("node_modules").resolve("openai");
        if (!java.nio.file.Files.exists(module.resolve("package.json"))) {
            java.nio.file.Files.createDirectories(cache);
            Process install = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund", "--prefix", cache.toString(),
                "openai@6").redirectErrorStream(true).start();
            String log = new String(install.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(install.waitFor()).as("npm install openai: " + log).isZero();
        }
        return module;
    }

    private JsonNode node(java.nio.file.Path module, String key) throws Exception {
        java.nio.file.Path script = java.nio.file.Path.of(getClass().getResource("/openai-node/failover.cjs").toURI());
        ProcessBuilder node = new ProcessBuilder("node", script.toString());
        node.environment().put("OPENAI_MODULE", module.toString());
        node.environment().put("BASE_URL", "http://127.0.0.1:" + port + "/v1");
        node.environment().put("API_KEY", key);
        Process run = node.start();
        String out = new String(run.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        String err = new String(run.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(run.waitFor()).as(out + err).isZero();
        return JsonMapper.builder().build().readTree(out);
    }
}
