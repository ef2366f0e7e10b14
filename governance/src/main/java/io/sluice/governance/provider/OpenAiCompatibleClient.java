package io.sluice.governance.provider;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.sluice.governance.gateway.LlmChoice;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmParameters;


import okhttp3.Callback;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One OpenAI-compatible provider over plain HTTP (OkHttp). The request body is built from the call
 * as it is — every generation parameter, tool and tool message goes through unchanged — and the
 * answer's choices, tool calls, finish reasons, usage and {@code x-ratelimit-*} / {@code Retry-After}
 * headers come back as they are. The only retry here is a call whose pooled socket the provider had closed
 * (the gateway owns every other retry). A deadline cancels the HTTP exchange itself, so a hung provider
 * costs no thread past it.
 */
public final class OpenAiCompatibleClient implements ProviderClient {

    /**
     * Idle connections kept for reuse: above the calls one instance holds in flight (thousands), so a closed
     * loop of long calls reuses its sockets instead of closing and reopening them (a socket each, no thread).
     */
    static final int IDLE_CONNECTIONS = 8192;
    /** Calls (streams) the HTTP client runs at once: far above any lane's permits, which are the bound. */
    static final int MAX_CALLS = 100_000;
    private static final MediaType JSON_TYPE = MediaType.get("application/json");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /**
     * Connection pools the calls are spread over. OkHttp finds a free HTTP/1.1 connection, and cleans its pool,
     * by walking the pool's connections: at a thousand calls in flight, with the clean-up then after every call,
     * those walks were 6 % of a call's CPU (JFR). Eight pools walk an eighth each; the calls still share one
     * dispatcher.
     */
    static final int POOLS = 8;

    /** How long an idle connection is kept for the next call. */
    static final Duration KEEP_ALIVE = Duration.ofMinutes(5);

    private final ProviderEndpoint endpoint;
    /** Cleans the pools once a second, not after every call (see {@link LazyPoolCleanup}). */
    private final LazyPoolCleanup poolCleanup = new LazyPoolCleanup();
    private final OkHttpClient[] pools = new OkHttpClient[POOLS];
    private final java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
    /** Bounded by the route table's models (a few per provider). */
    private final Map<String, HttpUrl> urls = new java.util.concurrent.ConcurrentHashMap<>();

    public OpenAiCompatibleClient(ProviderEndpoint endpoint) {
        this.endpoint = endpoint;
        // streams run on the dispatcher, one thread each while the stream lasts: virtual threads, so thousands
        // of open streams pin no platform thread; the gateway's permits bound them, not this cap
        Dispatcher dispatcher = new Dispatcher(java.util.concurrent.Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("sluice-llm-stream-", 0).factory()));
        dispatcher.setMaxRequests(MAX_CALLS);
        dispatcher.setMaxRequestsPerHost(MAX_CALLS);
        OkHttpClient first = new OkHttpClient.Builder()
            .dispatcher(dispatcher)
            .connectionPool(poolCleanup.newPool(IDLE_CONNECTIONS / POOLS, KEEP_ALIVE))
            .connectTimeout(Duration.ofSeconds(10))
            .readTimeout(Duration.ZERO) // the gateway's deadline (call timeout, first-token timer) bounds a call
            // a provider (or its load balancer) may close a kept-alive socket just as it is taken from the pool:
            // OkHttp then sends the call again on a fresh connection instead of failing it. That is transport,
            // not a provider failure, so the gateway's retries, retry budget and breakers never see it; the
            // call timeout bounds the whole exchange, retries included
            .retryOnConnectionFailure(true)
            .build();
        pools[0] = first;
        for (int i = 1; i < POOLS; i++) {
            pools[i] = first.newBuilder().connectionPool(poolCleanup.newPool(IDLE_CONNECTIONS / POOLS, KEEP_ALIVE)).build();
        }
    }

    /**
     * The client of the pool for the next call: 64 calls in a row go to one pool, then the next, so each pool
     * sees an even share and a quiet instance's calls still find the connection the last one left.
     */
    private OkHttpClient http() {
        return pools[(int) ((calls.getAndIncrement() >>> 6) % POOLS)];
    }

    /** An OpenAI-compatible provider at {@code baseUrl} (the one-provider short form). */
    public static OpenAiCompatibleClient of(String baseUrl, String apiKey) {
        return new OpenAiCompatibleClient(new ProviderEndpoint("default", ProviderKind.OPENAI_COMPATIBLE, baseUrl, apiKey, null));
    }

    public ProviderEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public ProviderResult call(ProviderClient.Call call, Duration timeout) {
        okhttp3.Call http = http().newCall(request("chat/completions", call.model(), body(call, false)));
        expireAfter(http, timeout);
        try (Response response = http.execute()) {
            RateLimitInfo limits = RateLimitInfo.from(response::header);
            if (!response.isSuccessful()) {
                return failure(response.code(), response.body() == null ? "" : response.body().string(), limits);
            }
            return answered(JSON.readTree(response.body() == null ? new byte[0] : response.body().bytes()), limits);
        } catch (JacksonException e) {
            return new ProviderResult.Failed(ProviderResult.Kind.UNPARSABLE, "unparsable answer", RateLimitInfo.NONE);
        } catch (IOException e) {
            return ioFailure(http, e, timeout);
        }
    }

    @Override
    public Cancellable stream(ProviderClient.Call call, StreamHandler handler) {
        okhttp3.Call http = http().newCall(request("chat/completions", call.model(), body(call, true)));
        AtomicBoolean ended = new AtomicBoolean();
        http.enqueue(new Callback() {
            @Override
            public void onFailure(okhttp3.Call c, IOException e) {
                if (ended.compareAndSet(false, true) && !c.isCanceled()) {
                    handler.onError(new ProviderResult.Failed(ProviderResult.Kind.IO, String.valueOf(e.getMessage()),
                        RateLimitInfo.NONE));
                }
            }

            @Override
            public void onResponse(okhttp3.Call c, Response response) {
                try (response) {
                    RateLimitInfo limits = RateLimitInfo.from(response::header);
                    if (!response.isSuccessful()) {
                        String text = response.body() == null ? "" : response.body().string();
                        if (ended.compareAndSet(false, true)) {
                            handler.onError(failure(response.code(), text, limits));
                        }
                        return;
                    }
                    readEvents(response.body(), handler, ended, limits);
                } catch (IOException | RuntimeException e) {
                    if (ended.compareAndSet(false, true) && !c.isCanceled()) {
                        handler.onError(new ProviderResult.Failed(e instanceof JacksonException
                            ? ProviderResult.Kind.UNPARSABLE : ProviderResult.Kind.IO, String.valueOf(e.getMessage()),
                            RateLimitInfo.NONE));
                    }
                }
            }
        });
        return http::cancel;
    }

    @Override
    public EmbeddingResult embed(String model, List<String> inputs, Duration timeout) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", model);
        ArrayNode input = body.putArray("input");
        inputs.forEach(input::add);
        okhttp3.Call http = http().newCall(request("embeddings", model, JSON.writeValueAsBytes(body)));
        expireAfter(http, timeout);
        try (Response response = http.execute()) {
            RateLimitInfo limits = RateLimitInfo.from(response::header);
            String text = response.body() == null ? "" : response.body().string();
            if (!response.isSuccessful()) {
                return new EmbeddingResult.Failed(failure(response.code(), text, limits));
            }
            JsonNode tree = JSON.readTree(text);
            List<float[]> vectors = new ArrayList<>();
            for (JsonNode item : tree.path("data")) {
                JsonNode values = item.path("embedding");
                float[] vector = new float[values.size()];
                for (int i = 0; i < vector.length; i++) {
                    vector[i] = (float) values.get(i).asDouble();
                }
                vectors.add(vector);
            }
            if (vectors.size() != inputs.size()) {
                return new EmbeddingResult.Failed(new ProviderResult.Failed(ProviderResult.Kind.UNPARSABLE,
                    "expected " + inputs.size() + " embeddings, got " + vectors.size(), limits));
            }
            return new EmbeddingResult.Embedded(vectors, tree.path("usage").path("prompt_tokens").asInt(0), limits);
        } catch (JacksonException e) {
            return new EmbeddingResult.Failed(new ProviderResult.Failed(ProviderResult.Kind.UNPARSABLE,
                "unparsable embeddings", RateLimitInfo.NONE));
        } catch (IOException e) {
            return new EmbeddingResult.Failed(ioFailure(http, e, timeout));
        }
    }

    /**
     * The call's whole timeout, to the nanosecond: cut to whole milliseconds it could fire before the caller's deadline,
     * and the caller, still seeing time left, would retry into a timeout that counts against its breakers again.
     */
    private static void expireAfter(okhttp3.Call http, Duration timeout) {
        http.timeout().timeout(Math.max(1, timeout.toNanos()), TimeUnit.NANOSECONDS); // 0 would mean none
    }

    @Override
    public void close() {
        pools[0].dispatcher().cancelAll();
        pools[0].dispatcher().executorService().shutdown();
        for (OkHttpClient pool : pools) {
            pool.connectionPool().evictAll();
        }
        poolCleanup.shutdown();
    }

    // ------------------------------------------------------------------ wire format

    private Request request(String path, String model, byte[] body) {
        Request.Builder builder = new Request.Builder().post(RequestBody.create(body, JSON_TYPE))
            .url(urls.computeIfAbsent(model + " " + path, k -> url(path, model)));
        if (endpoint.kind().azure()) {
            if (endpoint.apiKey() != null && !endpoint.apiKey().isBlank()) {
                builder.header("api-key", endpoint.apiKey());
            }
        } else {
            if (endpoint.apiKey() != null && !endpoint.apiKey().isBlank()) {
                builder.header("Authorization", "Bearer " + endpoint.apiKey());
            }
        }
        return builder.build();
    }

    /**
     * The request body, written straight to bytes (no tree of it is built): the call's messages, the
     * completion cap and every parameter as the client sent it.
     */
    static byte[] body(ProviderClient.Call call, boolean stream) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (JsonGenerator json = JSON.createGenerator(bytes)) {
            json.writeStartObject();
            json.writeStringProperty("model", call.model());
            json.writeArrayPropertyStart("messages");
            for (LlmMessage m : call.messages()) {
                json.writeStartObject();
                json.writeStringProperty("role", ROLES.get(m.role()));
                if (LlmMessage.contentIsNull(m.content(), m.toolCalls())) {
                    json.writeNullProperty("content");
                } else {
                    json.writeStringProperty("content", m.content());
                }
                if (m.toolCalls() != null) {
                    json.writeName("tool_calls");
                    json.writeTree(m.toolCalls());
                }
                if (m.toolCallId() != null) {
                    json.writeStringProperty("tool_call_id", m.toolCallId());
                }
                if (m.name() != null) {
                    json.writeStringProperty("name", m.name());
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            LlmParameters parameters = call.parameters();
            json.writeNumberProperty(parameters.has(LlmParameters.MAX_COMPLETION_TOKENS)
                ? LlmParameters.MAX_COMPLETION_TOKENS : "max_tokens", call.maxTokens());
            for (Map.Entry<String, JsonNode> p : parameters.values().entrySet()) {
                if (!p.getKey().equals(LlmParameters.MAX_COMPLETION_TOKENS)) {
                    json.writeName(p.getKey());
                    json.writeTree(p.getValue());
                }
            }
            if (stream) {
                json.writeBooleanProperty("stream", true);
                json.writeObjectPropertyStart("stream_options");
                json.writeBooleanProperty("include_usage", true); // usage settles the token budget
                json.writeEndObject();
            }
            json.writeEndObject();
        }
        return bytes.toByteArray();
    }

    private static final Map<LlmMessage.Role, String> ROLES = roles();

    private static Map<LlmMessage.Role, String> roles() {
        Map<LlmMessage.Role, String> names = new java.util.EnumMap<>(LlmMessage.Role.class);
        for (LlmMessage.Role role : LlmMessage.Role.values()) {
            names.put(role, role.name().toLowerCase(java.util.Locale.ROOT));
        }
        return names;
    }

    /** Parsed once per model and path (Azure names the deployment in the path): a URL parse per call is measurable. */
    private HttpUrl url(String path, String model) {
        String base = endpoint.baseUrl().endsWith("/") ? endpoint.baseUrl().substring(0, endpoint.baseUrl().length() - 1)
            : endpoint.baseUrl();
        if (endpoint.kind().azure()) {
            return HttpUrl.get(base + "/openai/deployments/" + model + "/" + path).newBuilder()
                .addQueryParameter("api-version", endpoint.apiVersion()).build();
        }
        return HttpUrl.get(base + "/" + path);
    }

    static ProviderResult answered(JsonNode tree, RateLimitInfo limits) {
        JsonNode choicesNode = tree.path("choices");
        if (!choicesNode.isArray() || choicesNode.isEmpty()) {
            return new ProviderResult.Failed(ProviderResult.Kind.UNPARSABLE, "an answer without choices", limits);
        }
        List<LlmChoice> choices = new ArrayList<>();
        for (JsonNode c : choicesNode) {
            JsonNode message = c.path("message");
            JsonNode toolCalls = message.path("tool_calls");
            choices.add(new LlmChoice(c.path("index").asInt(choices.size()), message.path("content").asString(""),
                toolCalls.isArray() && !toolCalls.isEmpty() ? toolCalls : null,
                c.path("finish_reason").isString() ? c.path("finish_reason").asString() : null));
        }
        JsonNode usage = tree.path("usage");
        return new ProviderResult.Answered(choices.get(0).text(), usage.path("prompt_tokens").asInt(0),
            usage.path("completion_tokens").asInt(0), limits, choices);
    }

    static ProviderResult failure(int status, String body, RateLimitInfo limits) {
        if (status == 429) {
            return new ProviderResult.RateLimited(limits.retryAfter(), limits);
        }
        if (status >= 500) {
            return new ProviderResult.Failed(ProviderResult.Kind.SERVER_ERROR, "HTTP " + status, limits);
        }
        if (status == 400 || status == 413 || status == 422) {
            return new ProviderResult.Failed(ProviderResult.Kind.INVALID_REQUEST, "HTTP " + status + ": " + message(body),
                limits);
        }
        return new ProviderResult.Failed(ProviderResult.Kind.CLIENT_ERROR, "HTTP " + status, limits);
    }

    /** The provider's own error message (OpenAI shape), short; never the request. */
    private static String message(String body) {
        try {
            String message = JSON.readTree(body).path("error").path("message").asString("");
            return message.length() > 300 ? message.substring(0, 300) + "…" : message;
        } catch (JacksonException e) {
            return "the provider refused the request";
        }
    }

    private static ProviderResult.Failed ioFailure(okhttp3.Call http, IOException e, Duration timeout) {
        if (http.isCanceled() || e instanceof InterruptedIOException) {
            return new ProviderResult.Failed(ProviderResult.Kind.TIMEOUT, "no answer within " + timeout.toMillis() + " ms",
                RateLimitInfo.NONE);
        }
        return new ProviderResult.Failed(ProviderResult.Kind.IO, String.valueOf(e.getMessage()), RateLimitInfo.NONE);
    }

    /** Reads SSE events until [DONE] or the end of the body; a stream without a finish reason was cut. */
    private static void readEvents(ResponseBody body, StreamHandler handler, AtomicBoolean ended, RateLimitInfo limits)
            throws IOException {
        BufferedSource source = body.source();
        int prompt = 0;
        int completion = 0;
        String finish = null;
        String line;
        while ((line = source.readUtf8Line()) != null) {
            if (!line.startsWith("data:")) {
                continue; // comments (keep-alive padding), event names, blank separators
            }
            String data = line.substring(5).trim();
            if (data.equals("[DONE]")) {
                break;
            }
            JsonNode chunk = JSON.readTree(data);
            if (chunk.has("error")) {
                if (ended.compareAndSet(false, true)) {
                    handler.onError(new ProviderResult.Failed(ProviderResult.Kind.SERVER_ERROR, "error in the stream", limits));
                }
                return;
            }
            JsonNode choice = chunk.path("choices").path(0);
            if (!choice.isMissingNode()) {
                JsonNode delta = choice.path("delta");
                String content = delta.path("content").asString("");
                if (!content.isEmpty()) {
                    handler.onToken(content);
                }
                if (delta.path("tool_calls").isArray()) {
                    handler.onToolCalls(delta.path("tool_calls"));
                }
                if (choice.path("finish_reason").isString()) {
                    finish = choice.path("finish_reason").asString();
                }
            }
            JsonNode usage = chunk.path("usage");
            if (usage.isObject()) {
                prompt = usage.path("prompt_tokens").asInt(prompt);
                completion = usage.path("completion_tokens").asInt(completion);
            }
        }
        if (ended.compareAndSet(false, true)) {
            handler.onComplete(prompt, completion, finish);
        }
    }
}
