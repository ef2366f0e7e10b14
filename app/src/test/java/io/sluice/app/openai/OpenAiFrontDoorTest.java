package io.sluice.app.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.errors.InternalServerException;
import com.openai.errors.NotFoundException;
import com.openai.errors.RateLimitException;
import com.openai.errors.SseException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.models.Model;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.openai.keys.KeyBudgets;
import io.sluice.api.openai.keys.KeyPolicy;
import io.sluice.api.openai.keys.RequestLog;
import io.sluice.app.support.TestServices;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code /v1/chat/completions} and {@code /v1/models} driven by the official OpenAI Java SDK against
 * the whole application, with the mock provider as the only simulated part (real gateway, Redis,
 * PostgreSQL).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OpenAiFrontDoorTest {

    static final String RUN = UUID.randomUUID().toString();
    static final MockProvider MOCK = MockProvider.start(0);

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, RUN);
        registry.add("sluice.llm.base-url", MOCK::baseUrl);
        registry.add("sluice.degradation.auto", () -> "false");
        registry.add("sluice.gateway.lanes.interactive.budget", () -> "2s"); // a hung provider costs 2 s, not 6
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
    DegradationControl degradation;

    @Autowired
    ClusterPermits permits;

    @Autowired
    KeyBudgets keyBudgets;

    @Autowired
    RequestLog requestLog;

    @Autowired
    io.sluice.knowledge.embedding.RemoteEmbeddings remoteEmbeddings;

    @Autowired
    io.micrometer.core.instrument.MeterRegistry meters;

    OpenAIClient openai;

    @BeforeEach
    void client() {
        String key = apiKeys.create("openai-sdk-" + UUID.randomUUID(), ClientTier.VIP).key();
        openai = OpenAIOkHttpClient.builder().apiKey(key).baseUrl("http://127.0.0.1:" + port + "/v1")
            .maxRetries(0).build();
    }

    @AfterEach
    void close() {
        degradation.unpin("test");
        MOCK.scenario(Scenario.healthy());
        openai.close();
    }

    static ChatCompletionCreateParams ask(String model, String question) {
        return ChatCompletionCreateParams.builder().model(model)
            .addSystemMessage("You answer customer questions.").addUserMessage(question).build();
    }

    @Autowired
    org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext webContext;

    @Test
    void everyRequestPassesOnlyTheServletFiltersThePlatformUses() {
        var tomcat = ((org.springframework.boot.tomcat.TomcatWebServer) webContext.getWebServer()).getTomcat();
        var context = (org.apache.catalina.Context) tomcat.getHost().findChildren()[0];
        List<String> filters = java.util.Arrays.stream(context.findFilterMaps())
            .map(org.apache.tomcat.util.descriptor.web.FilterMap::getFilterName).toList();

        assertThat(filters).as("the guards and the security chain").contains("apiKeyFilter", "requestSizeLimitFilter",
            "controlCharacterFilter", "springSecurityFilterChain");
        assertThat(filters).as("no WebSocket endpoint: its filter would run on every request anyway")
            .doesNotContain("Tomcat WebSocket (JSR356) Filter");
        assertThat(context.getApplicationLifecycleListeners()).as("no WebSocket session listener").isEmpty();
        // the bean is Spring MVC's composite around the proxy that holds the chains: the inner one filters
        Object securityChains = webContext.getBean("springSecurityFilterChain");
        while (org.springframework.util.ReflectionUtils.findField(securityChains.getClass(), "springSecurityFilterChain") != null) {
            securityChains = org.springframework.test.util.ReflectionTestUtils.getField(securityChains, "springSecurityFilterChain");
        }
        var proxy = (org.springframework.security.web.FilterChainProxy) securityChains;
        var apiCall = new org.springframework.mock.web.MockHttpServletRequest("POST", "/v1/chat/completions");
        apiCall.setServletPath("/v1/chat/completions");
        assertThat(proxy.getFilterChains().stream().filter(chain -> chain.matches(apiCall)).findFirst().orElseThrow()
            .getFilters()).extracting(filter -> filter.getClass().getSimpleName())
            .as("an API call's security chain: the security headers only (its key is checked ahead of the chain)")
            .containsExactly("WebAsyncManagerIntegrationFilter", "HeaderWriterFilter");
        assertThat(org.springframework.test.util.ReflectionTestUtils.getField(proxy, "firewall"))
            .as("the firewall with the regex-free text rules").isSameAs(
                webContext.getBean(org.springframework.security.web.firewall.HttpFirewall.class));
    }

    @Test
    void aKeptAliveConnectionServesMoreThanTomcatsDefaultHundredCalls() throws Exception {
        String key = apiKeys.create("keep-alive-" + UUID.randomUUID(), ClientTier.STANDARD).key();
        byte[] call = ("GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key + "\r\n\r\n")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            var in = new java.io.BufferedInputStream(socket.getInputStream());
            for (int i = 1; i <= 250; i++) {
                socket.getOutputStream().write(call);
                String head = readHead(in);
                assertThat(head).as("call %d", i).startsWith("HTTP/1.1 200");
                assertThat(head.toLowerCase(java.util.Locale.ROOT)).as("call %d keeps the connection", i)
                    .doesNotContain("connection: close");
                int length = Integer.parseInt(head.replaceAll("(?is).*content-length: *(\\d+).*", "$1"));
                assertThat(in.readNBytes(length)).hasSize(length);
            }
        }
    }

    /** An HTTP response's status line and headers, up to the blank line. */
    private static String readHead(java.io.InputStream in) throws java.io.IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new java.io.EOFException("closed after: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }

    @Test
    void modelsListsTheConfiguredGatewayRoutes() {
        List<String> ids = openai.models().list().data().stream().map(Model::id).toList();

        assertThat(ids).contains("primary", "light");
    }

    @Test
    void aPlainCompletionIsAnsweredByTheProviderThroughTheGatewayWithTierAndLevelHeaders() {
        long served = MOCK.counters().served();

        HttpResponseFor<ChatCompletion> response = openai.chat().completions().withRawResponse()
            .create(ask("primary", "How long does a refund take?"));
        ChatCompletion completion = response.parse();

        assertThat(completion.choices()).hasSize(1);
        assertThat(completion.choices().get(0).message().content()).isPresent().get().asString().isNotBlank();
        assertThat(completion.model()).isEqualTo("primary");
        assertThat(response.headers().values("X-Sluice-Tier")).containsExactly("F4");
        assertThat(response.headers().values("X-Sluice-Level")).containsExactly("L0");
        assertThat(MOCK.counters().served()).isGreaterThan(served);
    }

    @Test
    void aStreamingCompletionArrivesAsOpenAiChunksThatTheSdkAssembles() {
        List<ChatCompletionChunk> chunks = new ArrayList<>();
        try (StreamResponse<ChatCompletionChunk> stream = openai.chat().completions()
                .createStreaming(ask("primary", "退款多久到账？"))) {
            stream.stream().forEach(chunks::add);
        }
        StringBuilder text = new StringBuilder();
        chunks.forEach(c -> c.choices().forEach(choice -> choice.delta().content().ifPresent(text::append)));

        assertThat(chunks.size()).isGreaterThanOrEqualTo(3);
        assertThat(text.toString()).isNotBlank();
        assertThat(chunks.get(chunks.size() - 1).choices().get(0).finishReason()).isPresent()
            .get().hasToString("stop");
    }

    @Test
    void aStreamTheProviderCutsMidwayEndsWithAnOpenAiErrorTheSdkRaisesNotWithStop() {
        degradation.pin(DegradationLevel.L0, "test", "stream at F4");
        MOCK.scenario(Scenario.healthy().withCompletionTokens(8).withInterTokenDelay(10).withCutStreamAfter(3));
        long cut = MOCK.counters().cut();
        List<ChatCompletionChunk> chunks = new ArrayList<>();

        assertThatThrownBy(() -> {
            try (StreamResponse<ChatCompletionChunk> stream = openai.chat().completions()
                    .createStreaming(ask("primary", "退款多久到账？"))) {
                stream.stream().forEach(chunks::add);
            }
        }).isInstanceOf(SseException.class).hasMessageContaining("stream broke");

        StringBuilder text = new StringBuilder();
        chunks.forEach(c -> c.choices().forEach(choice -> choice.delta().content().ifPresent(text::append)));
        assertThat(text.toString()).as("the tokens sent before the cut").contains("tok0", "tok2").doesNotContain("tok3");
        assertThat(chunks).as("no chunk claims the answer finished")
            .allSatisfy(c -> assertThat(c.choices().get(0).finishReason()).isEmpty());
        assertThat(MOCK.counters().cut()).isEqualTo(cut + 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> permits.inUse("interactive") == 0);
    }

    @Test
    void atLevelL3AClientThatOptedInGetsTheFaqAnswerWithoutCallingTheProvider() {
        degradation.pin(DegradationLevel.L3, "test", "front door at L3");
        long requests = MOCK.counters().requests();

        HttpResponseFor<ChatCompletion> response = openai.chat().completions().withRawResponse()
            .create(ask("primary", "退款多久到账").toBuilder().putAdditionalHeader("X-Sluice-Allow-Degraded", "true").build());

        assertThat(response.parse().choices().get(0).message().content()).isPresent();
        assertThat(response.headers().values("X-Sluice-Tier")).containsExactly("F1");
        assertThat(response.headers().values("X-Sluice-Level")).containsExactly("L3");
        assertThat(MOCK.counters().requests()).isEqualTo(requests);
    }

    @Test
    void atLevelL3AGenericClientGetsA503WithRetryAfterNotACannedAnswer() {
        degradation.pin(DegradationLevel.L3, "test", "front door at L3");

        assertThatThrownBy(() -> openai.chat().completions().create(ask("primary", "退款多久到账")))
            .isInstanceOfSatisfying(InternalServerException.class, e -> {
                assertThat(e.statusCode()).isEqualTo(503);
                assertThat(e.headers().values("Retry-After")).isNotEmpty();
                assertThat(e.headers().values("X-Sluice-Tier")).containsExactly("F0");
                assertThat(e.getMessage()).contains("degraded");
            });
    }

    @Test
    void aHungProviderWithoutOptInIsAGatewayTimeoutErrorNeverA200() {
        MOCK.scenario(Scenario.healthy().withHang(true));

        assertThatThrownBy(() -> openai.chat().completions().create(ask("primary", "How long does a refund take?")))
            .isInstanceOfSatisfying(InternalServerException.class, e -> {
                assertThat(e.statusCode()).isIn(503, 504);
                assertThat(e.getMessage()).contains("time budget");
            });
        assertThatThrownBy(() -> {
            try (StreamResponse<ChatCompletionChunk> stream = openai.chat().completions()
                    .createStreaming(ask("primary", "How long does a refund take?"))) {
                stream.stream().forEach(c -> { });
            }
        }).as("a stream that never started is an error status too").isInstanceOfSatisfying(InternalServerException.class,
            e -> assertThat(e.statusCode()).isIn(503, 504));
        await().atMost(Duration.ofSeconds(10)).until(() -> permits.inUse("interactive") == 0);
    }

    @Test
    void aHungProviderWithOptInGetsTheDegradedAnswerAndItsTier() {
        MOCK.scenario(Scenario.healthy().withHang(true));

        HttpResponseFor<ChatCompletion> response = openai.chat().completions().withRawResponse()
            .create(ask("primary", "退款多久到账").toBuilder().putAdditionalHeader("X-Sluice-Allow-Degraded", "true").build());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().values("X-Sluice-Tier")).containsExactly("F1");
    }

    @Test
    void aRateLimitedProviderIsA429WithRetryAfter() {
        MOCK.scenario(Scenario.healthy().withRateLimited(1.0, 1));

        assertThatThrownBy(() -> openai.chat().completions().create(ask("primary", "How long does a refund take?")))
            .isInstanceOfSatisfying(RateLimitException.class,
                e -> assertThat(e.headers().values("Retry-After")).isNotEmpty());
        MOCK.scenario(Scenario.healthy());
        // the shared cool-down (Retry-After 1 s) ends: the next tests start with a provider that answers
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
            .until(() -> openai.chat().completions().create(ask("primary", "hi")).choices().size() == 1);
    }

    @Test
    void everyParameterReachesTheProviderAndToolCallsFinishReasonAndUsageComeBack() {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model("gpt-4o-mini")
            .addUserMessage("Where is my order 42?").temperature(0.2).topP(0.9).seed(7L).n(2L).user("customer-1")
            .presencePenalty(0.1).frequencyPenalty(0.2).maxCompletionTokens(64L)
            .stopOfStrings(List.of("END"))
            .responseFormat(com.openai.models.ResponseFormatJsonObject.builder().build())
            .addTool(com.openai.models.chat.completions.ChatCompletionFunctionTool.builder()
                .function(com.openai.models.FunctionDefinition.builder().name("lookup_order").build()).build())
            .build();

        ChatCompletion completion = openai.chat().completions().create(params);

        var sent = MOCK.lastRequest();
        assertThat(sent.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(sent.path("top_p").asDouble()).isEqualTo(0.9);
        assertThat(sent.path("seed").asInt()).isEqualTo(7);
        assertThat(sent.path("n").asInt()).isEqualTo(2);
        assertThat(sent.path("user").asString()).isEqualTo("customer-1");
        assertThat(sent.path("presence_penalty").asDouble()).isEqualTo(0.1);
        assertThat(sent.path("frequency_penalty").asDouble()).isEqualTo(0.2);
        assertThat(sent.path("max_completion_tokens").asInt()).isEqualTo(64);
        assertThat(sent.path("stop").path(0).asString()).isEqualTo("END");
        assertThat(sent.path("response_format").path("type").asString()).isEqualTo("json_object");
        assertThat(sent.path("tools").path(0).path("function").path("name").asString()).isEqualTo("lookup_order");
        assertThat(sent.path("model").asString()).as("the real model name was accepted").isEqualTo("gpt-4o-mini");
        assertThat(completion.choices()).hasSize(2);
        assertThat(completion.choices().get(0).finishReason()).hasToString("tool_calls");
        String callId = completion.choices().get(0).message().toolCalls().orElseThrow().get(0).asFunction().id();
        assertThat(completion.usage()).isPresent();

        // the tool's result goes back as a role "tool" message: no 400, and the model answers with text
        ChatCompletion answer = openai.chat().completions().create(ChatCompletionCreateParams.builder().model("primary")
            .addUserMessage("Where is my order 42?")
            .addMessage(completion.choices().get(0).message())
            .addMessage(com.openai.models.chat.completions.ChatCompletionToolMessageParam.builder()
                .toolCallId(callId).content("{\"status\":\"shipped\"}").build())
            .addTool(com.openai.models.chat.completions.ChatCompletionFunctionTool.builder()
                .function(com.openai.models.FunctionDefinition.builder().name("lookup_order").build()).build())
            .maxCompletionTokens(4L).build());

        assertThat(MOCK.lastRequest().path("messages").path(2).path("role").asString()).isEqualTo("tool");
        assertThat(MOCK.lastRequest().path("messages").path(2).path("tool_call_id").asString()).isEqualTo(callId);
        assertThat(MOCK.lastRequest().path("messages").path(1).path("tool_calls").path(0).path("id").asString())
            .isEqualTo(callId);
        assertThat(answer.choices().get(0).finishReason()).as("max 4 tokens cut the 16-token answer").hasToString("length");
    }

    @Test
    void aStreamWithIncludeUsageEndsWithAUsageChunk() {
        List<ChatCompletionChunk> chunks = new ArrayList<>();
        try (StreamResponse<ChatCompletionChunk> stream = openai.chat().completions().createStreaming(
                ask("primary", "退款多久到账？").toBuilder()
                    .streamOptions(com.openai.models.chat.completions.ChatCompletionStreamOptions.builder()
                        .includeUsage(true).build()).build())) {
            stream.stream().forEach(chunks::add);
        }

        ChatCompletionChunk last = chunks.get(chunks.size() - 1);
        assertThat(last.choices()).isEmpty();
        assertThat(last.usage()).isPresent();
        assertThat(last.usage().get().completionTokens()).isEqualTo(16);
    }

    @Test
    void aKeyWithTheSemanticCacheGetsAnEquivalentSecondCallFromTheCacheButNeverAMultiTurnOrToolsCall() {
        var issued = apiKeys.create("v1-cache-" + UUID.randomUUID(), ClientTier.VIP);
        keyBudgets.setPolicy(issued.client().id(), new KeyPolicy(List.of(), null, null, null, null, false, true));
        OpenAIClient cached = OpenAIOkHttpClient.builder().apiKey(issued.key()).baseUrl("http://127.0.0.1:" + port + "/v1")
            .maxRetries(0).build();
        String marker = "order " + UUID.randomUUID().toString().substring(0, 8);
        try {
            HttpResponseFor<ChatCompletion> first = cached.chat().completions().withRawResponse()
                .create(ask("primary", "How long does the refund of " + marker + " take?"));
            assertThat(first.headers().values("X-Sluice-Cache")).containsExactly("miss");
            String answer = first.parse().choices().get(0).message().content().orElseThrow();

            // the same question, spaced differently: one standalone user turn, the same system prompt
            HttpResponseFor<ChatCompletion> second = cached.chat().completions().withRawResponse()
                .create(ask("primary", "How long does the refund of  " + marker + "  take ?"));
            assertThat(second.headers().values("X-Sluice-Cache")).containsExactly("hit");
            assertThat(second.headers().values("X-Sluice-Tier")).containsExactly("F4");
            assertThat(second.parse().choices().get(0).message().content()).contains(answer);
            assertThat(MOCK.received(marker.substring(6))).as("the mock answered the first call only").isEqualTo(1);

            // a second turn of a conversation, or a call with tools, never comes from (or goes into) the cache
            ChatCompletionCreateParams multiTurn = ChatCompletionCreateParams.builder().model("primary")
                .addSystemMessage("You answer customer questions.")
                .addUserMessage("How long does the refund of " + marker + " take?")
                .addAssistantMessage(answer).addUserMessage("How long does the refund of " + marker + " take?").build();
            HttpResponseFor<ChatCompletion> third = cached.chat().completions().withRawResponse().create(multiTurn);
            assertThat(third.headers().values("X-Sluice-Cache")).isEmpty();
            HttpResponseFor<ChatCompletion> withTools = cached.chat().completions().withRawResponse().create(
                ChatCompletionCreateParams.builder().model("primary").addSystemMessage("You answer customer questions.")
                    .addUserMessage("How long does the refund of " + marker + " take?")
                    .addTool(com.openai.models.chat.completions.ChatCompletionFunctionTool.builder()
                        .function(com.openai.models.FunctionDefinition.builder().name("lookup_order").build()).build())
                    .build());
            assertThat(withTools.headers().values("X-Sluice-Cache")).isEmpty();
            assertThat(MOCK.received(marker.substring(6))).as("both went to the provider").isEqualTo(3);

            // a key without the flag is never served from the cache, even for the cached question
            HttpResponseFor<ChatCompletion> plain = openai.chat().completions().withRawResponse()
                .create(ask("primary", "How long does the refund of " + marker + " take?"));
            assertThat(plain.headers().values("X-Sluice-Cache")).isEmpty();
            assertThat(MOCK.received(marker.substring(6))).isEqualTo(4);
            assertThat(requestLog.find(new RequestLog.Filter(issued.client().id(), null, "cache", 200, null, null), 10))
                .as("the hit is in the request log with provider 'cache'").hasSize(1);
        } finally {
            cached.close();
        }
    }

    @Test
    void aKeyOverItsDailyTokenBudgetGets429WithTheBudgetTypeAndItsSpendMatchesTheMock() {
        var issued = apiKeys.create("budget-" + UUID.randomUUID(), ClientTier.VIP);
        keyBudgets.setPolicy(issued.client().id(), new KeyPolicy(List.of("primary"), 100L, null, null, null, false));
        OpenAIClient limited = OpenAIOkHttpClient.builder().apiKey(issued.key()).baseUrl("http://127.0.0.1:" + port + "/v1")
            .maxRetries(0).build();
        try {
            // the tokens the mock counted for these calls, as it reported them in each answer's usage (its
            // global counter also sees other traffic of the application, e.g. warm-up, at the same time)
            long tokensCounted = 0;
            int answered = 0;
            RateLimitException refusal = null;
            for (int i = 0; i < 20 && refusal == null; i++) {
                try {
                    var completion = limited.chat().completions().create(ask("primary", "How long does a refund take?"));
                    tokensCounted += completion.usage().orElseThrow().totalTokens();
                    answered++;
                } catch (RateLimitException e) {
                    refusal = e;
                }
            }

            assertThat(answered).as("answers until the 100-token budget is spent").isBetween(1, 10);
            assertThat(refusal).isNotNull();
            assertThat(refusal.getMessage()).contains("daily token budget");
            assertThat(refusal.code()).contains("budget_exceeded");
            assertThat(refusal.headers().values("Retry-After")).isNotEmpty();
            assertThat(keyBudgets.spent(issued.client().id())[0].tokens()).as("spend = what the mock counted")
                .isEqualTo(tokensCounted);
            assertThatThrownBy(() -> limited.chat().completions().create(ask("light", "hi")))
                .as("a model outside the key's scope").isInstanceOf(com.openai.errors.PermissionDeniedException.class);
            assertThat(requestLog.find(new RequestLog.Filter(issued.client().id(), null, null, 429, null, null), 10))
                .as("the refusal is in the request log").isNotEmpty();
        } finally {
            limited.close();
        }
    }

    @Test
    void theJavaSdkGetsEmbeddingsFromTheEmbeddingLane() {
        var response = openai.embeddings().create(com.openai.models.embeddings.EmbeddingCreateParams.builder()
            .model("embedding").inputOfArrayOfStrings(List.of("退款多久到账", "where is my order")).build());

        assertThat(response.data()).hasSize(2).allSatisfy(e -> assertThat(e.embedding()).hasSize(8));
        assertThat(MOCK.lastRequest().path("input").size()).isEqualTo(2);
    }

    @Test
    void theRemoteKnowledgeEmbedderCallsThroughTheGatewaysEmbeddingLaneNeverDirectly() {
        var settings = new io.sluice.knowledge.config.KnowledgeProperties.Embedding("openai", null, "embedding", null, 8, 16,
            0, 1, "none");
        io.sluice.knowledge.embedding.Embedder embedder =
            io.sluice.knowledge.config.KnowledgeConfiguration.remoteEmbedder(settings, remoteEmbeddings);
        double okBefore = embeddings("ok");
        long requestsBefore = MOCK.counters().requests();

        List<float[]> vectors = embedder.embedAll(List.of("退款多久到账", "where is my order", "发票怎么开"));

        assertThat(vectors).hasSize(3).allSatisfy(v -> assertThat(v).hasSize(8));
        assertThat(MOCK.lastRequest().path("input").size()).as("one batch at the mock's /v1/embeddings").isEqualTo(3);
        assertThat(MOCK.counters().requests()).isGreaterThan(requestsBefore);
        assertThat(embeddings("ok") - okBefore).as("counted by the embedding lane").isEqualTo(1);

        // every permit of the embedding lane held: the embedder is refused by the lane, nothing reaches the provider
        List<io.sluice.governance.permit.PermitLease> held = new ArrayList<>();
        try {
            int size = permits.size("embedding");
            for (int i = 0; i < size; i++) {
                held.add(permits.tryAcquire("embedding", Duration.ofSeconds(2)).orElseThrow());
            }
            assertThat(meters.get("sluice.gateway.permits.used").tag("lane", "embedding").gauge().value()).isEqualTo(size);
            long requestsHeld = MOCK.counters().requests();
            double saturatedBefore = embeddings("saturated");
            assertThatThrownBy(() -> embedder.embedAll(List.of("退款")))
                .isInstanceOf(io.sluice.knowledge.embedding.EmbeddingException.class).hasMessageContaining("saturated");
            assertThat(embeddings("saturated") - saturatedBefore).isEqualTo(1);
            assertThat(MOCK.lastRequest().path("input").size()).as("the refused call never reached the mock").isEqualTo(3);
            assertThat(MOCK.counters().requests() - requestsHeld).isLessThanOrEqualTo(0);
        } finally {
            held.forEach(io.sluice.governance.permit.PermitLease::close);
        }
        var withEndpoint = new io.sluice.knowledge.config.KnowledgeProperties.Embedding("openai", "http://elsewhere/v1",
            "embedding", null, 8, 16, 0, 1, "none");
        assertThatThrownBy(() -> io.sluice.knowledge.config.KnowledgeConfiguration.remoteEmbedder(withEndpoint,
            remoteEmbeddings)).as("a direct endpoint is refused at start-up").hasMessageContaining("goes through the gateway");
    }

    private double embeddings(String outcome) {
        var counter = meters.find("sluice.gateway.embeddings").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    /**
     * The official {@code openai} npm package (installed once into ~/.cache/sluice-openai-node) drives the
     * front door from a small Node script: tools round trip, JSON mode, n, streaming with usage, errors,
     * embeddings.
     */
    @Test
    void theOfficialNodeSdkDrivesTheFrontDoor() throws Exception {
        java.nio.file.Path cache = java.nio.file.Path.of(System.getProperty("user.home"), ".cache", "sluice-openai-node");
        java.nio.file.Path module = cache.resolve("node_modules").resolve("openai");
        if (!java.nio.file.Files.exists(module.resolve("package.json"))) {
            java.nio.file.Files.createDirectories(cache);
            Process install = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund", "--prefix", cache.toString(),
                "openai@6").redirectErrorStream(true).start();
            String log = new String(install.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(install.waitFor()).as("npm install openai: " + log).isZero();
        }
        java.nio.file.Path script = java.nio.file.Path.of(getClass().getResource("/openai-node/frontdoor.cjs").toURI());
        ProcessBuilder node = new ProcessBuilder("node", script.toString());
        node.environment().put("OPENAI_MODULE", module.toString());
        node.environment().put("BASE_URL", "http://127.0.0.1:" + port + "/v1");
        node.environment().put("API_KEY", apiKeys.create("node-sdk-" + UUID.randomUUID(), ClientTier.VIP).key());
        Process run = node.redirectErrorStream(false).start();
        String out = new String(run.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        String err = new String(run.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(run.waitFor()).as(out + err).isZero();
        var result = tools.jackson.databind.json.JsonMapper.builder().build().readTree(out);

        assertThat(result.path("plain").path("finish").asString()).isEqualTo("length");
        assertThat(result.path("plain").path("usage").path("completion_tokens").asInt()).isEqualTo(8);
        assertThat(result.path("tools").path("choices").asInt()).isEqualTo(2);
        assertThat(result.path("tools").path("finish").asString()).isEqualTo("tool_calls");
        assertThat(result.path("tools").path("name").asString()).isEqualTo("lookup_order");
        assertThat(result.path("tools").path("answerFinish").asString()).isEqualTo("length");
        assertThat(result.path("json").path("finish").asString()).isEqualTo("stop");
        assertThat(result.path("stream").path("text").asString()).contains("tok0");
        assertThat(result.path("stream").path("usage").path("completion_tokens").asInt()).isEqualTo(16);
        assertThat(result.path("notFound").path("status").asInt()).isEqualTo(404);
        assertThat(result.path("badKey").path("status").asInt()).isEqualTo(401);
        assertThat(result.path("badKey").path("message").asString()).as("the SDK shows the body, not 'no body'")
            .contains("not valid");
        assertThat(result.path("embeddings").path("count").asInt()).isEqualTo(2);
        assertThat(result.path("embeddings").path("dimensions").asInt()).isEqualTo(8);
    }

    @Test
    void anUnknownModelIsANotFoundErrorTheSdkUnderstandsAndABadKeyIsUnauthorized() {
        assertThatThrownBy(() -> openai.chat().completions().create(ask("no-such-model", "hi")))
            .isInstanceOf(NotFoundException.class)
            .hasMessageContaining("no-such-model");

        OpenAIClient stranger = OpenAIOkHttpClient.builder().apiKey("sk-sluice-wrong")
            .baseUrl("http://127.0.0.1:" + port + "/v1").maxRetries(0).build();
        try {
            assertThatThrownBy(() -> stranger.models().list()).isInstanceOf(UnauthorizedException.class)
                .as("the SDK reads OpenAI's error shape").hasMessageContaining("not valid");
        } finally {
            stranger.close();
        }
    }

    @Test
    void aBodyThatIsNotJsonOrMissingIsAnOpenAiShapedBadRequestAndOnlyJsonIsAccepted() throws Exception {
        String key = apiKeys.create("raw-" + UUID.randomUUID(), ClientTier.VIP).key();
        long requests = MOCK.counters().requests();
        try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
            java.util.function.BiFunction<String, String, java.net.http.HttpResponse<String>> post = (type, body) -> {
                try {
                    return http.send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                        .header("Authorization", "Bearer " + key).header("Content-Type", type)
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };

            var broken = post.apply("application/json", "{\"model\": \"primary\", \"messages\": [");
            assertThat(broken.statusCode()).isEqualTo(400);
            assertThat(broken.body()).contains("\"error\"").contains("request body is not valid JSON")
                .as("the payload is not echoed back").doesNotContain("\"messages\": [");

            var empty = post.apply("application/json", "");
            assertThat(empty.statusCode()).isEqualTo(400);
            assertThat(empty.body()).contains("\"error\"").contains("request body is missing or unreadable");

            var text = post.apply("text/plain", "{\"model\": \"primary\"}");
            assertThat(text.statusCode()).isEqualTo(415);
        }
        assertThat(MOCK.counters().requests()).as("none of them reached the provider").isEqualTo(requests);
    }

    @Autowired
    JdbcClient jdbc;

    @Test
    void theRequestLogAndTheSpendAreWrittenBehindYetEveryReadSeesEveryCallThatEnded() {
        var issued = apiKeys.create("write-behind-" + UUID.randomUUID(), ClientTier.VIP);
        OpenAIClient own = OpenAIOkHttpClient.builder().apiKey(issued.key()).baseUrl("http://127.0.0.1:" + port + "/v1")
            .maxRetries(0).build();
        try {
            long tokens = 0;
            for (int i = 0; i < 3; i++) {
                tokens += own.chat().completions().create(ask("primary", "Where is my parcel? " + i)).usage().orElseThrow()
                    .totalTokens();
            }
            long client = issued.client().id();
            long counted = tokens;

            // no waiting: a read writes what is still queued first
            assertThat(requestLog.find(new RequestLog.Filter(client, null, null, 200, "F4", null), 10)).hasSize(3)
                .allSatisfy(row -> assertThat(row.at()).isNotNull());
            var today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
            assertThat(keyBudgets.rows(client, today, today)).singleElement().satisfies(row -> {
                assertThat(row.requests()).isEqualTo(3);
                assertThat(row.promptTokens() + row.completionTokens()).isEqualTo(counted);
            });
        } finally {
            own.close();
        }
    }

    @Autowired
    DataSource dataSource;

    @Test
    void aKeysPolicyStaysInForceWhileTheDatabaseCannotAnswerAndIsReadAgainOnceItCan() {
        long client = apiKeys.create("policy-db-down-" + UUID.randomUUID(), ClientTier.STANDARD).client().id();
        long neverRead = apiKeys.create("policy-never-read-" + UUID.randomUUID(), ClientTier.STANDARD).client().id();
        setAllowedModels(client, "primary");
        AtomicBoolean down = new AtomicBoolean();
        JdbcClient flaky = JdbcClient.create(new DelegatingDataSource(dataSource) {
            @Override
            public Connection getConnection() throws SQLException {
                if (down.get()) {
                    throw new SQLTransientConnectionException("sluice-db - Connection is not available (test)");
                }
                return super.getConnection();
            }
        });
        // a TTL of zero: every call is due to read the policy again
        var properties = new io.sluice.api.openai.keys.KeyBudgetProperties(java.util.Map.of(), Duration.ofDays(14),
            Duration.ZERO, new io.sluice.api.openai.keys.KeyBudgetProperties.WriteBehind(false, Duration.ofSeconds(1), 10));
        KeyBudgets budgets = new KeyBudgets(flaky, properties, java.time.Clock.systemUTC());
        assertThat(budgets.policy(client).allowedModels()).containsExactly("primary");

        down.set(true);
        assertThat(budgets.policy(client).allowedModels()).as("the last known policy, not an error")
            .containsExactly("primary");
        assertThatThrownBy(() -> budgets.policy(neverRead)).as("a key never read needs the database")
            .isInstanceOf(org.springframework.dao.DataAccessException.class);

        down.set(false);
        setAllowedModels(client, "fallback");
        assertThat(budgets.policy(client).allowedModels()).as("read again once the database answers")
            .containsExactly("fallback");
    }

    private void setAllowedModels(long client, String model) {
        jdbc.sql("""
                INSERT INTO gateway_key_policy (client_id, allowed_models, allow_degraded, semantic_cache, updated_at)
                VALUES (?, ?, false, false, now())
                ON CONFLICT (client_id) DO UPDATE SET allowed_models = EXCLUDED.allowed_models, updated_at = now()""")
            .params(client, new String[] {model}).update();
    }

    @Test
    void whatIsQueuedIsWrittenAtShutdownAndAFullQueueMakesTheCallWriteItsOwn() {
        var client = apiKeys.create("write-behind-close-" + UUID.randomUUID(), ClientTier.STANDARD).client().id();
        // flushes once a minute, at most 2 rows and 2 spend sums queued: nothing is written before close() but overflow
        var properties = new io.sluice.api.openai.keys.KeyBudgetProperties(java.util.Map.of(), Duration.ofDays(14),
            Duration.ofSeconds(2), new io.sluice.api.openai.keys.KeyBudgetProperties.WriteBehind(true, Duration.ofMinutes(1), 2));
        RequestLog log = new RequestLog(jdbc, properties);
        KeyBudgets budgets = new KeyBudgets(jdbc, properties, java.time.Clock.systemUTC());
        var writeBehind = new io.sluice.api.openai.keys.GatewayWriteBehind(log, budgets, properties);
        for (int i = 0; i < 3; i++) {
            log.write(new RequestLog.Entry(null, client, "u" + i, "primary", "primary", "default", 200, "F4", 5, 1, 2, false,
                null));
        }
        budgets.record(client, "u0", "m", "default", 1, 2);
        budgets.record(client, "u0", "m", "default", 1, 2); // the same row: added up in memory
        budgets.record(client, "u1", "m", "default", 10, 20);
        budgets.record(client, "u2", "m", "default", 100, 200); // a third row, past the bound: written at once

        assertThat(log.pending()).isEqualTo(2);
        assertThat(budgets.pending()).isEqualTo(2);
        assertThat(rows("gateway_request_log", client)).as("the third row found no room and was written by its call")
            .isEqualTo(1);
        assertThat(rows("gateway_spend", client)).isEqualTo(1);

        writeBehind.close();

        assertThat(log.pending()).isZero();
        assertThat(budgets.pending()).isZero();
        assertThat(rows("gateway_request_log", client)).isEqualTo(3);
        assertThat(jdbc.sql("SELECT sum(requests), sum(prompt_tokens + completion_tokens) FROM gateway_spend WHERE client_id = ?")
            .param(client).query((rs, n) -> List.of(rs.getLong(1), rs.getLong(2))).single()).containsExactly(4L, 336L);
    }

    private long rows(String table, long client) {
        return jdbc.sql("SELECT count(*) FROM " + table + " WHERE client_id = ?").param(client).query(Long.class).single();
    }
}
