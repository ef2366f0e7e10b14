package io.sluice.mock;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A mock OpenAI-compatible provider: {@code POST /v1/chat/completions} (plain and {@code stream: true}
 * SSE in the OpenAI chunk format), driven by a {@link Scenario} and counting what it saw.
 *
 * <p>Control endpoints: {@code GET|PUT /_mock/scenario} (PUT overlays the given JSON fields),
 * {@code GET /_mock/counters}, {@code POST /_mock/reset} (zeroes counters, keeps the scenario).
 *
 * <p>Embeddable ({@code MockProvider.start(0)} in a test) and standalone ({@link MockProviderMain}).
 */
public final class MockProvider implements AutoCloseable {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final ExecutorService executor;
    private final AtomicReference<Scenario> scenario = new AtomicReference<>(Scenario.healthy());
    private volatile CountDownLatch hangRelease = new CountDownLatch(1);
    /** The latest request bodies (at most {@value #KEPT_BODIES}), for tests that count their own calls among others. */
    private final java.util.concurrent.ConcurrentLinkedDeque<JsonNode> bodies = new java.util.concurrent.ConcurrentLinkedDeque<>();
    /** How many bodies are kept: the deque's own size() walks every node, on every request of a load test. */
    private final java.util.concurrent.atomic.AtomicInteger keptBodies = new java.util.concurrent.atomic.AtomicInteger();
    private static final int KEPT_BODIES = 2000;
    private volatile long remainingRequests = -1;

    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong served = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong hung = new AtomicLong();
    private final AtomicLong cut = new AtomicLong();
    private final AtomicLong disconnected = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxConcurrentSeen = new AtomicInteger();
    private final AtomicLong promptTokens = new AtomicLong();
    private final AtomicLong completionTokens = new AtomicLong();
    /** Admitted calls: {admittedAtMs, tokens}, for the TPM cap and {@link #maxTokensInAnyWindow}. */
    private final Deque<long[]> tokenLog = new ArrayDeque<>();

    private MockProvider(HttpServer server) {
        this.server = server;
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "mock-provider");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/v1/chat/completions", this::chat);
        server.createContext("/v1/embeddings", this::embeddings);
        server.createContext("/_mock/scenario", this::scenarioEndpoint);
        server.createContext("/_mock/counters", exchange -> respond(exchange, 200, JSON.writeValueAsBytes(counters()), "application/json"));
        server.createContext("/_mock/reset", exchange -> {
            reset();
            respond(exchange, 204, new byte[0], null);
        });
    }

    /** Starts on 127.0.0.1 at the given port (0 = any free port). */
    public static MockProvider start(int port) {
        // without TCP_NODELAY, headers and body leave in two small segments and the client's delayed
        // ACK adds ~40 ms to every answer; read once by the JDK server, so set before the first server
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        // the JDK server closes a connection that goes idle while 200 others are idle: at 1,024 connections
        // in a closed loop its clients keep finding pooled sockets closed under them. The mock is uncapped,
        // so it keeps them (a real provider's keep-alive limits are what the gateway's stale-socket retry is for)
        if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
            System.setProperty("sun.net.httpserver.maxIdleConnections", "20000");
        }
        try {
            // a backlog for thousands of connections opened at once (the capacity legs: 1,024 and 5,000)
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 8192);
            MockProvider provider = new MockProvider(server);
            server.start();
            return provider;
        } catch (IOException e) {
            throw new IllegalStateException("mock provider could not bind port " + port, e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The OpenAI-style base URL, e.g. {@code http://127.0.0.1:PORT/v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    public Scenario scenario() {
        return scenario.get();
    }

    /** Replaces the scenario; calls held by a previous {@code hang} are released (their body ends with an error). */
    public MockProvider scenario(Scenario next) {
        scenario.set(next);
        CountDownLatch previous = hangRelease;
        hangRelease = new CountDownLatch(1);
        previous.countDown();
        return this;
    }

    /** The body of the last chat-completion request received (null before the first): what the gateway sent. */
    public JsonNode lastRequest() {
        return bodies.peekLast();
    }

    /** How many of the latest request bodies (chat and embeddings) contain {@code text} anywhere. */
    public long received(String text) {
        return bodies.stream().filter(b -> b.toString().contains(text)).count();
    }

    private void keep(JsonNode body) {
        bodies.addLast(body);
        if (keptBodies.incrementAndGet() > KEPT_BODIES && bodies.pollFirst() != null) {
            keptBodies.decrementAndGet();
        }
    }

    /** The bodies of the newest chat-completion requests (up to {@value #RECENT}), oldest first. */
    public List<JsonNode> recentRequests() {
        List<JsonNode> chats = bodies.stream().filter(b -> b.has("messages")).toList();
        return List.copyOf(chats.subList(Math.max(0, chats.size() - RECENT), chats.size()));
    }

    static final int RECENT = 64;

    /**
     * Every answer announces {@code x-ratelimit-remaining-requests: n} (reset in 5 s), as real providers do;
     * -1 (the default) = not sent.
     */
    public void remainingRequests(long n) {
        this.remainingRequests = n;
    }

    public MockCounters counters() {
        return new MockCounters(requests.get(), served.get(), rejected.get(), errors.get(), malformed.get(), hung.get(),
            cut.get(), disconnected.get(), inFlight.get(), maxConcurrentSeen.get(), promptTokens.get(),
            completionTokens.get());
    }

    /** Zeroes the counters and the token log (the scenario stays). */
    public void reset() {
        for (AtomicLong c : List.of(sequence, requests, served, rejected, errors, malformed, hung, cut, disconnected,
                promptTokens, completionTokens)) {
            c.set(0);
        }
        maxConcurrentSeen.set(inFlight.get());
        synchronized (tokenLog) {
            tokenLog.clear();
        }
    }

    /** The most tokens admitted within any window of the given length (sliding over admission times). */
    public long maxTokensInAnyWindow(long windowMs) {
        List<long[]> events;
        synchronized (tokenLog) {
            events = new ArrayList<>(tokenLog);
        }
        long max = 0;
        long sum = 0;
        int start = 0;
        for (int end = 0; end < events.size(); end++) {
            sum += events.get(end)[1];
            while (events.get(end)[0] - events.get(start)[0] >= windowMs) {
                sum -= events.get(start++)[1];
            }
            max = Math.max(max, sum);
        }
        return max;
    }

    @Override
    public void close() {
        hangRelease.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    // ---------------------------------------------------------------- chat completions

    private void chat(HttpExchange exchange) throws IOException {
        if (!"POST".equals(exchange.getRequestMethod())) {
            respond(exchange, 405, error("method not allowed"), "application/json");
            return;
        }
        requests.incrementAndGet();
        int concurrent = inFlight.incrementAndGet();
        maxConcurrentSeen.accumulateAndGet(concurrent, Math::max);
        // a request stops counting as in flight just before its answer (or last chunk) leaves, so a
        // client that sends its next request on receipt is never seen overlapping with this one
        java.util.concurrent.atomic.AtomicBoolean left = new java.util.concurrent.atomic.AtomicBoolean();
        LEAVE.set(() -> {
            if (left.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
            }
        });
        try {
            Scenario s = scenario.get();
            SplittableRandom random = new SplittableRandom(s.seed() * 0x9E3779B97F4A7C15L + sequence.incrementAndGet());
            JsonNode body;
            try (InputStream in = exchange.getRequestBody()) {
                body = JSON.readTree(in);
            } catch (RuntimeException e) {
                respond(exchange, 400, error("request body is not JSON"), "application/json");
                return;
            }
            keep(body);
            if (remainingRequests >= 0) {
                exchange.getResponseHeaders().add("x-ratelimit-remaining-requests", Long.toString(remainingRequests));
                exchange.getResponseHeaders().add("x-ratelimit-reset-requests", "5s");
            }
            String model = body.path("model").asString("mock-model");
            boolean stream = body.path("stream").asBoolean(false);
            boolean includeUsage = body.path("stream_options").path("include_usage").asBoolean(false);
            int maxTokens = body.path("max_tokens").asInt(body.path("max_completion_tokens").asInt(Integer.MAX_VALUE));
            int prompt = promptTokens(body.path("messages"));
            List<String> tokens = answerTokens(s, maxTokens);
            boolean cutByMax = tokens.size() < fullLength(s);
            int choices = Math.max(1, body.path("n").asInt(1));
            JsonNode messages = body.path("messages");
            JsonNode tools = body.path("tools");
            // a model with tools that has not seen a tool result yet calls the first tool, as real ones do
            boolean callsTool = tools.isArray() && !tools.isEmpty() && !"none".equals(body.path("tool_choice").asString(""))
                && !"tool".equals(messages.path(messages.size() - 1).path("role").asString(""));

            if (s.concurrencyCap() > 0 && concurrent > s.concurrencyCap()) {
                rateLimited(exchange, s, "concurrency cap " + s.concurrencyCap() + " exceeded", 1, 0);
                return;
            }
            if (random.nextDouble() < s.rateLimitRate()) {
                rateLimited(exchange, s, "rate limit reached", s.retryAfterSeconds(), 0);
                return;
            }
            if (!admitTokens(exchange, s, prompt + tokens.size())) {
                return;
            }
            promptTokens.addAndGet(prompt);
            completionTokens.addAndGet(tokens.size());
            if (s.hang()) {
                hung.incrementAndGet();
                hang(exchange, stream);
                return;
            }
            sleep(latency(s, random));
            if (s.failingModels().contains(model)) {
                errors.incrementAndGet();
                respond(exchange, 500, error("model " + model + " is failing"), "application/json");
                return;
            }
            if (random.nextDouble() < s.errorRate()) {
                errors.incrementAndGet();
                int status = s.errorStatuses().get(random.nextInt(s.errorStatuses().size()));
                respond(exchange, status, error("mock failure " + status), "application/json");
                return;
            }
            if (random.nextDouble() < s.malformedRate()) {
                malformed.incrementAndGet();
                respond(exchange, 200, "{\"id\":\"chatcmpl-x\",\"choices\":[{\"message\":{\"content\":\"trunc"
                    .getBytes(StandardCharsets.UTF_8), "application/json");
                return;
            }
            if (stream) {
                stream(exchange, s, model, prompt, tokens, includeUsage, cutByMax);
            } else {
                sleep(s.interTokenDelayMs() * tokens.size());
                plain(exchange, model, prompt, tokens, choices, cutByMax, callsTool ? tools.path(0) : null);
            }
        } finally {
            leave();
            LEAVE.remove();
        }
    }

    /**
     * {@code POST /v1/embeddings}: one deterministic 8-dimensional unit vector per input (from its
     * characters), usage = prompt tokens as for chat; the scenario's error rate, 429s and failing models apply.
     */
    private void embeddings(HttpExchange exchange) throws IOException {
        requests.incrementAndGet();
        Scenario s = scenario.get();
        SplittableRandom random = new SplittableRandom(s.seed() * 0x9E3779B97F4A7C15L + sequence.incrementAndGet());
        JsonNode body;
        try (InputStream in = exchange.getRequestBody()) {
            body = JSON.readTree(in);
        } catch (RuntimeException e) {
            respond(exchange, 400, error("request body is not JSON"), "application/json");
            return;
        }
        keep(body);
        if (random.nextDouble() < s.rateLimitRate()) {
            rateLimited(exchange, s, "rate limit reached", s.retryAfterSeconds(), 0);
            return;
        }
        String model = body.path("model").asString("mock-embedding");
        if (s.failingModels().contains(model) || random.nextDouble() < s.errorRate()) {
            errors.incrementAndGet();
            respond(exchange, 500, error("mock failure 500"), "application/json");
            return;
        }
        JsonNode input = body.path("input");
        List<String> texts = new ArrayList<>();
        if (input.isString()) {
            texts.add(input.asString());
        } else {
            input.forEach(i -> texts.add(i.asString("")));
        }
        List<Map<String, Object>> data = new ArrayList<>();
        int chars = 0;
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            chars += text.length();
            double[] v = new double[8];
            for (int c = 0; c < text.length(); c++) {
                v[c % 8] += text.charAt(c) % 31 + 1;
            }
            double norm = Math.sqrt(java.util.Arrays.stream(v).map(x -> x * x).sum());
            List<Double> vector = new ArrayList<>();
            for (double x : v) {
                vector.add(norm == 0 ? 0 : x / norm);
            }
            data.add(Map.of("object", "embedding", "index", i, "embedding", vector));
        }
        int prompt = (chars + 3) / 4;
        promptTokens.addAndGet(prompt);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("object", "list");
        answer.put("data", data);
        answer.put("model", model);
        answer.put("usage", Map.of("prompt_tokens", prompt, "total_tokens", prompt));
        served.incrementAndGet();
        respond(exchange, 200, JSON.writeValueAsBytes(answer), "application/json");
    }

    private static final ThreadLocal<Runnable> LEAVE = new ThreadLocal<>();

    private static void leave() {
        Runnable leave = LEAVE.get();
        if (leave != null) {
            leave.run();
        }
    }

    private boolean admitTokens(HttpExchange exchange, Scenario s, int tokens) throws IOException {
        long now = System.currentTimeMillis();
        long used;
        long oldest;
        synchronized (tokenLog) {
            while (!tokenLog.isEmpty() && tokenLog.peekFirst()[0] <= now - s.tpmWindowMs()) {
                tokenLog.pollFirst();
            }
            used = tokenLog.stream().mapToLong(e -> e[1]).sum();
            oldest = tokenLog.isEmpty() ? now : tokenLog.peekFirst()[0];
            if (s.tpmCap() > 0 && used + tokens > s.tpmCap()) {
                used = -1 - used; // refused: answered below, outside the lock
            } else {
                tokenLog.addLast(new long[] {now, tokens});
                used += tokens;
            }
        }
        if (used < 0) {
            long spent = -1 - used;
            long resetMs = Math.max(1, oldest + s.tpmWindowMs() - now);
            rateLimited(exchange, s, "tokens per minute exceeded", (int) Math.max(1, (resetMs + 999) / 1000),
                Math.max(0, s.tpmCap() - spent));
            return false;
        }
        if (s.tpmCap() > 0) {
            long resetMs = Math.max(1, oldest + s.tpmWindowMs() - now);
            exchange.getResponseHeaders().add("x-ratelimit-limit-tokens", Long.toString(s.tpmCap()));
            exchange.getResponseHeaders().add("x-ratelimit-remaining-tokens", Long.toString(Math.max(0, s.tpmCap() - used)));
            exchange.getResponseHeaders().add("x-ratelimit-reset-tokens", resetMs + "ms");
        }
        return true;
    }

    private void rateLimited(HttpExchange exchange, Scenario s, String message, int retryAfterSeconds,
            long remainingTokens) throws IOException {
        rejected.incrementAndGet();
        var headers = exchange.getResponseHeaders();
        headers.add("Retry-After", Integer.toString(retryAfterSeconds));
        headers.add("x-ratelimit-remaining-requests", "0");
        headers.add("x-ratelimit-remaining-tokens", Long.toString(remainingTokens));
        headers.add("x-ratelimit-reset-requests", retryAfterSeconds + "s");
        headers.add("x-ratelimit-reset-tokens", retryAfterSeconds + "s");
        if (s.tpmCap() > 0) {
            headers.add("x-ratelimit-limit-tokens", Long.toString(s.tpmCap()));
        }
        respond(exchange, 429, error(message), "application/json");
    }

    private void plain(HttpExchange exchange, String model, int prompt, List<String> tokens, int n, boolean cutByMax,
            JsonNode tool) throws IOException {
        List<Map<String, Object>> choiceList = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Object> message = new LinkedHashMap<>();
            message.put("role", "assistant");
            Map<String, Object> choice = new LinkedHashMap<>();
            choice.put("index", i);
            if (tool != null) {
                message.put("content", null);
                message.put("tool_calls", List.of(Map.of("id", "call_" + sequence.get() + "_" + i, "type", "function",
                    "function", Map.of("name", tool.path("function").path("name").asString("tool"), "arguments", "{}"))));
                choice.put("finish_reason", "tool_calls");
            } else {
                message.put("content", String.join("", tokens));
                choice.put("finish_reason", cutByMax ? "length" : "stop");
            }
            choice.put("message", message);
            choiceList.add(choice);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", "chatcmpl-" + sequence.get());
        body.put("object", "chat.completion");
        body.put("created", System.currentTimeMillis() / 1000);
        body.put("model", model);
        body.put("choices", choiceList);
        body.put("usage", usage(prompt, tokens.size() * n));
        // counted before the answer leaves (like in-flight), so a client that reads the counters on
        // receipt sees it
        served.incrementAndGet();
        respond(exchange, 200, JSON.writeValueAsBytes(body), "application/json");
    }

    private void stream(HttpExchange exchange, Scenario s, String model, int prompt, List<String> tokens,
            boolean includeUsage, boolean cutByMax) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().add("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        String id = "chatcmpl-" + sequence.get();
        long created = System.currentTimeMillis() / 1000;
        try (OutputStream out = exchange.getResponseBody()) {
            event(out, chunk(id, created, model, Map.of("role", "assistant", "content", ""), null));
            for (int i = 0; i < tokens.size(); i++) {
                if (s.cutStreamAfterTokens() >= 0 && i >= s.cutStreamAfterTokens()) {
                    cut.incrementAndGet();
                    leave();
                    return; // closes the body without finish_reason or [DONE]
                }
                sleep(s.interTokenDelayMs());
                event(out, chunk(id, created, model, Map.of("content", tokens.get(i)), null));
            }
            leave();
            event(out, chunk(id, created, model, Map.of(), cutByMax ? "length" : "stop"));
            if (includeUsage) {
                Map<String, Object> last = new LinkedHashMap<>();
                last.put("id", id);
                last.put("object", "chat.completion.chunk");
                last.put("created", created);
                last.put("model", model);
                last.put("choices", List.of());
                last.put("usage", usage(prompt, tokens.size()));
                event(out, JSON.writeValueAsString(last));
            }
            served.incrementAndGet(); // before the last event leaves, as for a plain answer
            try {
                out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException lastWriteFailed) {
                served.decrementAndGet();
                throw lastWriteFailed;
            }
        } catch (IOException clientWentAway) {
            disconnected.incrementAndGet();
        }
    }

    private static String chunk(String id, long created, String model, Map<String, Object> delta, String finish) {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", 0);
        choice.put("delta", delta);
        choice.put("finish_reason", finish);
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("id", id);
        chunk.put("object", "chat.completion.chunk");
        chunk.put("created", created);
        chunk.put("model", model);
        chunk.put("choices", List.of(choice));
        return JSON.writeValueAsString(chunk);
    }

    private static void event(OutputStream out, String json) throws IOException {
        out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static Map<String, Object> usage(int prompt, int completion) {
        return Map.of("prompt_tokens", prompt, "completion_tokens", completion, "total_tokens", prompt + completion);
    }

    /** Prompt tokens as the mock counts them: one per 4 characters of message content, rounded up. */
    static int promptTokens(JsonNode messages) {
        int chars = 0;
        for (JsonNode message : messages) {
            JsonNode content = message.path("content");
            chars += content.isString() ? content.asString().length() : content.toString().length();
        }
        return (chars + 3) / 4;
    }

    private static int fullLength(Scenario s) {
        return s.responseText() != null ? (s.responseText().length() + 3) / 4 : s.completionTokens();
    }

    private static List<String> answerTokens(Scenario s, int maxTokens) {
        List<String> tokens = new ArrayList<>();
        if (s.responseText() != null) {
            String text = s.responseText();
            for (int i = 0; i < text.length(); i += 4) {
                tokens.add(text.substring(i, Math.min(text.length(), i + 4)));
            }
        } else {
            for (int i = 0; i < s.completionTokens(); i++) {
                tokens.add("tok" + i + " ");
            }
        }
        return tokens.size() > maxTokens ? tokens.subList(0, Math.max(0, maxTokens)) : tokens;
    }

    private static long latency(Scenario s, SplittableRandom random) {
        return switch (s.latency()) {
            case FIXED -> s.latencyMs();
            case NORMAL -> Math.max(0, Math.round(s.latencyMs() + s.latencyStdDevMs() * gaussian(random)));
            case LONG_TAIL -> random.nextDouble() < s.tailProbability() ? s.tailMs() : s.latencyMs();
        };
    }

    private static double gaussian(SplittableRandom random) {
        // Box-Muller: deterministic for a given random
        double u1 = Math.max(Double.MIN_VALUE, random.nextDouble());
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /**
     * Never answers, but notices a client that gives up, as a real provider does when its write to a
     * closed connection fails: the headers go out at once, then a byte of padding every
     * {@value #HANG_PROBE_MS} ms (whitespace before a JSON body, a comment line in an event stream). A
     * client that closed its connection stops counting as in flight ({@code disconnected} counts it);
     * a scenario change ends the held calls with an error body.
     */
    private void hang(HttpExchange exchange, boolean stream) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", stream ? "text/event-stream" : "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        byte[] padding = (stream ? ":\n" : " ").getBytes(StandardCharsets.UTF_8);
        CountDownLatch release = hangRelease;
        try {
            while (!release.await(HANG_PROBE_MS, TimeUnit.MILLISECONDS)) {
                out.write(padding);
                out.flush();
            }
            out.write(stream ? ("data: " + new String(error("released from hang"), StandardCharsets.UTF_8) + "\n\n")
                .getBytes(StandardCharsets.UTF_8) : error("released from hang"));
            out.close();
        } catch (IOException clientWentAway) {
            disconnected.incrementAndGet();
            exchange.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.close();
        }
    }

    private static final long HANG_PROBE_MS = 50;

    private static void sleep(long ms) {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms); // simulated provider latency, not test synchronisation
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------- control

    private void scenarioEndpoint(HttpExchange exchange) throws IOException {
        switch (exchange.getRequestMethod()) {
            case "GET" -> respond(exchange, 200, JSON.writeValueAsBytes(scenario.get()), "application/json");
            case "PUT", "POST" -> {
                try (InputStream in = exchange.getRequestBody()) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> current = JSON.convertValue(scenario.get(), LinkedHashMap.class);
                    @SuppressWarnings("unchecked")
                    Map<String, Object> patch = JSON.readValue(in, LinkedHashMap.class);
                    for (String key : patch.keySet()) {
                        if (!current.containsKey(key)) {
                            throw new IllegalArgumentException("unknown scenario field '" + key + "'; known: " + current.keySet());
                        }
                    }
                    current.putAll(patch);
                    scenario(JSON.convertValue(current, Scenario.class));
                    respond(exchange, 200, JSON.writeValueAsBytes(scenario.get()), "application/json");
                } catch (RuntimeException e) {
                    respond(exchange, 400, error(String.valueOf(e.getMessage())), "application/json");
                }
            }
            default -> respond(exchange, 405, error("method not allowed"), "application/json");
        }
    }

    private static byte[] error(String message) {
        return JSON.writeValueAsBytes(Map.of("error", Map.of("message", message, "type", "mock_error")));
    }

    private static void respond(HttpExchange exchange, int status, byte[] body, String contentType) throws IOException {
        leave();
        try (exchange) {
            if (contentType != null) {
                exchange.getResponseHeaders().add("Content-Type", contentType);
            }
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
        } catch (IOException clientWentAway) {
            // the client gave up (timeout, cancel): nothing to answer to
        }
    }
}
