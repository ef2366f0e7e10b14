package io.sluice.api.openai;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.auth.ApiClient;
import io.sluice.api.chat.Answer;
import io.sluice.api.chat.AnsweringStep;
import io.sluice.api.chat.ChatProperties;
import io.sluice.api.chat.ChatRequest;
import io.sluice.api.ingress.GlobalLimiter;
import io.sluice.api.chat.SemanticCache;
import io.sluice.api.openai.keys.KeyBudgets;
import io.sluice.api.problem.StoreFailures;
import io.sluice.api.openai.keys.KeyPolicy;
import io.sluice.api.openai.keys.RequestLog;
import io.sluice.api.ingress.UserTokenBucket;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.LevelKnobs;
import io.sluice.governance.gateway.GatewayProperties;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmChoice;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmParameters;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.gateway.LlmStream;
import io.sluice.governance.gateway.LlmStreamListener;
import io.sluice.governance.tier.FidelityTier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The OpenAI-compatible, governed front door: {@code POST /v1/chat/completions} (plain and
 * {@code stream: true}) and {@code GET /v1/models}, so OpenAI SDKs can use Sluice unchanged.
 * {@code model} names a configured gateway route; every call takes the same path as the chat API's
 * LLM calls: the client's user token bucket and the global limiter, then {@link LlmGateway} on the
 * INTERACTIVE lane (cluster permits, budget, retries, breaker, fallback chain), capped by the
 * degradation level's max_tokens. When the LLM cannot answer (level L3, saturated, timed out, failed,
 * no provider) the client gets an OpenAI-shaped error it can act on (429/503/504, Retry-After where it
 * applies — {@link OpenAiFailure}), unless it opted in to degraded answers ({@link DegradedOptIn}): then
 * the F1 FAQ answer to the last user message comes back in OpenAI form. {@code X-Sluice-Tier} (F4 = the
 * requested model, F3 = its fallback model, F1 = FAQ, F0 = refused) and {@code X-Sluice-Level} say which.
 */
@RestController
public class ChatCompletionsController {

    static final String TIER_HEADER = "X-Sluice-Tier";
    static final String LEVEL_HEADER = "X-Sluice-Level";
    /** The configured provider that answered (failover shows here). */
    static final String PROVIDER_HEADER = "X-Sluice-Provider";
    private static final int MAX_MESSAGES = 100;

    private final Supplier<LlmGateway> gateway;
    private final GatewayProperties gatewayProperties;
    private final DegradationControl degradation;
    private final AnsweringStep faq;
    private final UserTokenBucket buckets;
    private final GlobalLimiter global;
    private final ChatProperties chat;
    private final ObjectMapper json;
    private final MeterRegistry meters;
    private final Map<String, Counter> completions = new ConcurrentHashMap<>();
    private final io.sluice.governance.route.ModelRoutes routes;
    private final KeyBudgets budgets;
    private final RequestLog requestLog;
    private final io.sluice.api.ingress.UserLlmCalls llmCalls;
    private final io.sluice.api.ingress.EndUserVip endUserVip;
    private final V1SemanticCache v1Cache;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ChatCompletionsController.class);

    public ChatCompletionsController(ObjectProvider<LlmGateway> gateway, GatewayProperties gatewayProperties,
            DegradationControl degradation, AnsweringStep faq, UserTokenBucket buckets, GlobalLimiter global,
            ChatProperties chat, ObjectMapper json, MeterRegistry meters, KeyBudgets budgets, RequestLog requestLog,
            ObjectProvider<io.sluice.api.cache.RedisSemanticCache> semanticCache,
            ObjectProvider<io.sluice.api.ingress.UserLlmCalls> llmCalls,
            ObjectProvider<io.sluice.api.ingress.EndUserVip> endUserVip) {
        this.v1Cache = new V1SemanticCache(semanticCache, json, meters);
        this.llmCalls = llmCalls.getIfAvailable();
        this.endUserVip = endUserVip.getIfAvailable();
        this.budgets = budgets;
        this.requestLog = requestLog;
        this.gateway = SingletonSupplier.of(gateway::getIfAvailable); // resolved once it exists, not per request
        this.gatewayProperties = gatewayProperties;
        this.degradation = degradation;
        this.faq = faq;
        this.buckets = buckets;
        this.global = global;
        this.chat = chat;
        this.json = json;
        this.meters = meters;
        this.routes = io.sluice.governance.gateway.GatewayAssembly.routes(gatewayProperties);
    }

    @GetMapping(path = "/v1/models", produces = MediaType.APPLICATION_JSON_VALUE)
    public Map<String, Object> models() {
        List<Map<String, Object>> data = new ArrayList<>();
        for (String name : routes.names().keySet()) {
            data.add(modelObject(name));
        }
        return Map.of("object", "list", "data", data);
    }

    /** One model: a route key, an alias or a model name of a route. */
    @GetMapping(path = "/v1/models/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<?> model(@org.springframework.web.bind.annotation.PathVariable("id") String id) {
        if (routes.resolveName(id) == null) {
            return OpenAiError.of(HttpStatus.NOT_FOUND, "invalid_request_error", "model_not_found", "model",
                "The model does not exist; GET /v1/models lists the models this gateway serves", null);
        }
        return ResponseEntity.ok(modelObject(id));
    }

    private static Map<String, Object> modelObject(String id) {
        return Map.of("id", id, "object", "model", "created", 0, "owned_by", "sluice");
    }

    @PostMapping(path = "/v1/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<?> completions(ApiClient client, HttpServletRequest servletRequest,
            HttpServletResponse servletResponse) throws IOException {
        long started = System.nanoTime();
        JsonNode body = body(servletRequest);
        Trace trace = new Trace(client.id(), body.path("user").asString("openai"), body.path("model").asString(""),
            body.path("stream").asBoolean(false));
        ResponseEntity<?> response = null;
        int failedWith = 0;
        try {
            response = handle(client, body, servletRequest, servletResponse, trace);
        } catch (RuntimeException e) {
            // answered by the exception handlers: logged with the status they give it, not as a 200
            boolean store = StoreFailures.unavailable(e);
            failedWith = store ? 503 : 500;
            trace.errorCode = store ? "store_unavailable" : "internal";
            throw e;
        } finally {
            int status = response != null ? response.getStatusCode().value()
                : failedWith != 0 ? failedWith : servletResponse.getStatus();
            requestLog.write(new RequestLog.Entry(null, client.id(), trace.user, trace.model, trace.route, trace.provider,
                status, trace.tier.name(), (int) ((System.nanoTime() - started) / 1_000_000), trace.promptTokens,
                trace.completionTokens, trace.stream, status >= 400 ? trace.errorCode : null));
        }
        if (trace.answer != null) {
            // only now, once the call is in the request log: a client that has its answer finds its call there
            servletResponse.setContentLength(trace.answer.length);
            servletResponse.getOutputStream().write(trace.answer);
        }
        return response;
    }

    /**
     * The request body as JSON, read here rather than through {@code @RequestBody}: Spring's message-converter path
     * copies every request header into a map and parses the content type again on each call, a twentieth of a
     * {@code /v1} call's CPU (JFR). The mapping's {@code consumes} still answers 415; what is not JSON, or is
     * missing, fails as it did there ({@link HttpMessageNotReadableException}, the API's 400).
     */
    private JsonNode body(HttpServletRequest request) throws IOException {
        JsonNode body;
        try {
            body = json.readTree(request.getInputStream());
        } catch (JacksonException e) {
            throw new HttpMessageNotReadableException("JSON parse error: " + e.getOriginalMessage(), e,
                new ServletServerHttpRequest(request));
        }
        if (body == null || body.isMissingNode()) {
            throw new HttpMessageNotReadableException("Required request body is missing",
                new ServletServerHttpRequest(request));
        }
        return body;
    }

    /** What one call came to, for the request log and the key's spend. */
    private static final class Trace {
        final long clientId;
        final String user;
        final String model;
        final boolean stream;
        String route;
        String provider;
        FidelityTier tier = FidelityTier.F0;
        int promptTokens;
        int completionTokens;
        String errorCode = "invalid_request";
        boolean vip;
        /** A whole answer's JSON, written after the request log has the call (its headers are already set). */
        byte[] answer;

        Trace(long clientId, String user, String model, boolean stream) {
            this.clientId = clientId;
            this.user = user.length() > 128 ? user.substring(0, 128) : user;
            this.model = model.length() > 200 ? model.substring(0, 200) : model;
            this.stream = stream;
        }
    }

    /** An answer: tier, provider and tokens for the log, and the tokens added to the key's spend. */
    private void answered(Trace trace, FidelityTier tier, LlmOutcome.Answered a) {
        buckets.markAnswered(trace.clientId + ":" + trace.user, trace.vip); // the user's bucket may fill to its full capacity now
        trace.tier = tier;
        trace.provider = a.provider();
        trace.promptTokens = a.promptTokens();
        trace.completionTokens = a.completionTokens();
        try {
            budgets.record(trace.clientId, trace.user, a.model(), a.provider(), a.promptTokens(), a.completionTokens());
        } catch (RuntimeException e) {
            log.warn("gateway spend: not recorded for client {}: {}", trace.clientId, e.toString());
        }
    }

    private ResponseEntity<?> handle(ApiClient client, JsonNode body, HttpServletRequest servletRequest,
            HttpServletResponse servletResponse, Trace trace) throws IOException {
        String model = body.path("model").asString("");
        if (model.isBlank()) {
            return OpenAiError.invalid("model", "model is required");
        }
        String route = routes.resolveName(model);
        trace.route = route;
        if (route == null) {
            trace.errorCode = "model_not_found";
            return OpenAiError.of(HttpStatus.NOT_FOUND, "invalid_request_error", "model_not_found", "model",
                "The model '" + io.sluice.web.text.SafeText.forLog(model) + "' does not exist; GET /v1/models lists "
                    + "the models this gateway serves", null);
        }
        List<LlmMessage> messages = new ArrayList<>();
        String lastUser = null;
        JsonNode list = body.path("messages");
        if (!list.isArray() || list.isEmpty() || list.size() > MAX_MESSAGES) {
            return OpenAiError.invalid("messages", "messages must be a non-empty array of at most " + MAX_MESSAGES);
        }
        for (JsonNode m : list) {
            LlmMessage.Role role = switch (m.path("role").asString("")) {
                case "system", "developer" -> LlmMessage.Role.SYSTEM;
                case "user" -> LlmMessage.Role.USER;
                case "assistant" -> LlmMessage.Role.ASSISTANT;
                case "tool" -> LlmMessage.Role.TOOL;
                default -> null;
            };
            String content = content(m.path("content"));
            JsonNode toolCalls = m.path("tool_calls").isArray() && !m.path("tool_calls").isEmpty() ? m.path("tool_calls") : null;
            String toolCallId = m.path("tool_call_id").isString() ? m.path("tool_call_id").asString() : null;
            if (content == null && role == LlmMessage.Role.ASSISTANT && toolCalls != null) {
                content = ""; // an assistant turn that only called tools
            }
            if (role == null || content == null) {
                return OpenAiError.invalid("messages", "each message needs a role (system, developer, user, assistant, "
                    + "tool) and text content");
            }
            if (role == LlmMessage.Role.TOOL && toolCallId == null) {
                return OpenAiError.invalid("messages", "a tool message needs the tool_call_id it answers");
            }
            messages.add(new LlmMessage(role, content, toolCalls, toolCallId,
                m.path("name").isString() ? m.path("name").asString() : null));
            if (role == LlmMessage.Role.USER) {
                lastUser = content;
            }
        }
        if (lastUser == null || lastUser.isBlank()) {
            return OpenAiError.invalid("messages", "at least one non-empty user message is required");
        }
        int requested = body.path("max_completion_tokens").asInt(body.path("max_tokens").asInt(0));
        String user = body.path("user").asString("openai");
        if (user.length() > ChatRequest.MAX_USER_ID_CHARS || io.sluice.web.text.SafeText.hasControl(user)) {
            return OpenAiError.invalid("user", "user must be at most " + ChatRequest.MAX_USER_ID_CHARS
                + " characters, without control characters");
        }
        KeyBudgets.Decision allowed = budgets.check(client.id(), model, route);
        if (!(allowed instanceof KeyBudgets.Decision.Allowed)) {
            meters.counter("sluice.gateway.keys.refused", "reason",
                allowed instanceof KeyBudgets.Decision.OverBudget ? "budget" : "model").increment();
        }
        if (allowed instanceof KeyBudgets.Decision.ModelNotAllowed) {
            trace.errorCode = "model_not_allowed";
            return OpenAiError.of(HttpStatus.FORBIDDEN, "permission_error", "model_not_allowed", "model",
                "This API key may not use this model", null);
        }
        if (allowed instanceof KeyBudgets.Decision.OverBudget over) {
            trace.errorCode = "budget_exceeded";
            return OpenAiError.of(HttpStatus.TOO_MANY_REQUESTS, "insufficient_quota", "budget_exceeded", null,
                "This API key has spent its " + over.which() + "; it renews at the next UTC "
                    + (over.which().startsWith("daily") ? "day" : "month"), over.retryAfter());
        }
        KeyPolicy policy = ((KeyBudgets.Decision.Allowed) allowed).policy();
        boolean keyAllowsDegraded = policy.allowDegraded();
        // VIP: the client's tier or the end user's own attribute
        boolean vip = client.vip() || endUserVip != null && endUserVip.isVip(client.id(), user);
        trace.vip = vip;
        UserTokenBucket.Decision decision = buckets.take(client.id() + ":" + user, vip);
        if (!decision.allowed()) {
            trace.errorCode = "rate_limit_exceeded";
            return OpenAiError.of(HttpStatus.TOO_MANY_REQUESTS, "rate_limit_error", "rate_limit_exceeded", null,
                "Too many requests for this user; retry later", decision.retryAfter());
        }
        Duration wait = global.tryAcquire(Long.toString(client.id())); // the client's share, then the platform's rate
        if (!wait.isZero()) {
            trace.errorCode = "rate_limit_exceeded";
            return OpenAiError.of(HttpStatus.TOO_MANY_REQUESTS, "rate_limit_error", "rate_limit_exceeded", null,
                "The platform is at its request rate; retry later", wait);
        }
        DegradationLevel level = degradation.level();
        LevelKnobs knobs = degradation.knobs();
        int maxTokens = requested > 0 ? Math.min(requested, knobs.maxTokens()) : knobs.maxTokens();
        LlmGateway llm = gateway.get();
        if (llm != null && llmCalls != null) {
            llm = llmCalls.bind(llm, client.id() + ":" + user, vip); // each call counts against the user's window
        }
        boolean llmAllowed = llm != null && llm.available()
            && knobs.highestTier().ordinal() <= FidelityTier.F2.ordinal();
        boolean degradedOk = DegradedOptIn.requested(servletRequest, keyAllowsDegraded);
        if (!llmAllowed && !degradedOk) {
            OpenAiFailure failure = llm == null || !llm.available()
                ? OpenAiFailure.of(new LlmOutcome.Degraded(LlmOutcome.Reason.NOT_CONFIGURED, "no provider"))
                : OpenAiFailure.levelTooLow(level.name());
            return refused(failure, level, trace);
        }
        Map<String, JsonNode> passed = new LinkedHashMap<>();
        for (String name : LlmParameters.PASS_THROUGH) {
            if (body.has(name) && !body.get(name).isNull()) {
                passed.put(name, body.get(name));
            }
        }
        if (body.has(LlmParameters.MAX_COMPLETION_TOKENS)) {
            passed.put(LlmParameters.MAX_COMPLETION_TOKENS, body.get(LlmParameters.MAX_COMPLETION_TOKENS));
        }
        LlmParameters parameters = new LlmParameters(passed);
        boolean includeUsage = body.path("stream_options").path("include_usage").asBoolean(false);
        LlmRequest request = new LlmRequest(Lane.INTERACTIVE, route, messages, maxTokens, null, null, parameters,
            io.sluice.governance.gateway.RequestType.FRONT_DOOR);
        // an opaque, unique-enough id as OpenAI's are; not a secret, so no SecureRandom (one JVM-wide lock)
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String id = "chatcmpl-" + new UUID(random.nextLong(), random.nextLong()).toString().replace("-", "");
        if (body.path("stream").asBoolean(false)) {
            return stream(id, model, level, llmAllowed ? llm : null, request, lastUser, degradedOk, includeUsage,
                servletResponse, trace);
        }
        Completion completion;
        V1SemanticCache.Key cacheKey = policy.semanticCache() && llmAllowed
            ? v1Cache.key(client.id(), route, body, messages) : null;
        Optional<SemanticCache.Hit> hit = cacheKey == null ? Optional.empty()
            : v1Cache.lookup(cacheKey, level.name(), knobs.cacheThreshold());
        if (hit.isPresent()) {
            // no provider call, no tokens spent: the request log says "cache" where the provider would be
            completion = new Completion(hit.get().answer().text(), FidelityTier.F4, 0, 0, null, null);
            trace.tier = FidelityTier.F4;
            trace.provider = "cache";
        } else if (llmAllowed) {
            LlmOutcome outcome = llm.call(request);
            boolean badRequest = outcome instanceof LlmOutcome.Degraded d && d.reason() == LlmOutcome.Reason.INVALID_REQUEST;
            if (!(outcome instanceof LlmOutcome.Answered) && (!degradedOk || badRequest)) {
                return refused(OpenAiFailure.of(outcome), level, trace);
            }
            if (outcome instanceof LlmOutcome.Answered a) {
                answered(trace, a.fallbackModel() ? FidelityTier.F3 : FidelityTier.F4, a);
                if (cacheKey != null && !a.fallbackModel() && a.choices().size() == 1
                        && a.choices().get(0).toolCalls() == null && "stop".equals(a.finishReason())) {
                    v1Cache.store(cacheKey, a.text()); // a whole answer of the requested model only
                }
            } else {
                trace.tier = FidelityTier.F1;
            }
            completion = outcome instanceof LlmOutcome.Answered a
                ? new Completion(a.text(), a.fallbackModel() ? FidelityTier.F3 : FidelityTier.F4, a.promptTokens(),
                    a.completionTokens(), a.choices(), a.provider())
                : f1(lastUser);
        } else {
            completion = f1(lastUser);
            trace.tier = FidelityTier.F1;
        }
        count(completion.tier(), false);
        // written straight to the response: the answer is always JSON (as OpenAI's), so the converters, their
        // content negotiation and a copy of the headers through ResponseEntity were a tenth of a call's CPU
        servletResponse.setStatus(HttpServletResponse.SC_OK);
        servletResponse.setContentType(MediaType.APPLICATION_JSON_VALUE);
        servletResponse.setHeader(TIER_HEADER, completion.tier().name());
        servletResponse.setHeader(LEVEL_HEADER, level.name());
        if (cacheKey != null) {
            servletResponse.setHeader(V1SemanticCache.HEADER, hit.isPresent() ? "hit" : "miss");
        }
        if (completion.provider() != null) {
            servletResponse.setHeader(PROVIDER_HEADER, completion.provider());
        }
        trace.answer = completionJson(id, model, completion);
        return null; // written by completions(): nothing left for Spring MVC to write
    }

    /** OpenAI's {@code chat.completion} object of one answer. */
    private byte[] completionJson(String id, String model, Completion completion) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (JsonGenerator out = json.createGenerator(bytes)) {
            out.writeStartObject();
            out.writeStringProperty("id", id);
            out.writeStringProperty("object", "chat.completion");
            out.writeNumberProperty("created", System.currentTimeMillis() / 1000);
            out.writeStringProperty("model", model);
            out.writeArrayPropertyStart("choices");
            for (LlmChoice c : completion.choices()) {
                out.writeStartObject();
                out.writeNumberProperty("index", c.index());
                out.writeObjectPropertyStart("message");
                out.writeStringProperty("role", "assistant");
                if (LlmMessage.contentIsNull(c.text(), c.toolCalls())) {
                    out.writeNullProperty("content");
                } else {
                    out.writeStringProperty("content", c.text());
                }
                if (c.toolCalls() != null) {
                    out.writeName("tool_calls");
                    out.writeTree(c.toolCalls());
                }
                out.writeEndObject();
                out.writeStringProperty("finish_reason", c.finishReason() == null ? "stop" : c.finishReason());
                out.writeEndObject();
            }
            out.writeEndArray();
            out.writeObjectPropertyStart("usage");
            out.writeNumberProperty("prompt_tokens", completion.promptTokens());
            out.writeNumberProperty("completion_tokens", completion.completionTokens());
            out.writeNumberProperty("total_tokens", completion.promptTokens() + completion.completionTokens());
            out.writeEndObject();
            out.writeEndObject();
        }
        return bytes.toByteArray();
    }

    private record Completion(String text, FidelityTier tier, int promptTokens, int completionTokens,
            List<LlmChoice> choices, String provider) {
        Completion {
            choices = choices == null ? List.of(new LlmChoice(0, text, null, "stop")) : choices;
        }
    }

    /** Text of a message: a string, or the text parts of a content array. */
    private static String content(JsonNode content) {
        if (content.isString()) {
            return content.asString();
        }
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            for (JsonNode part : content) {
                if ("text".equals(part.path("type").asString(""))) {
                    text.append(part.path("text").asString(""));
                }
            }
            return text.toString();
        }
        return null;
    }

    /** An error the client can act on; the tier header says no tier answered (F0). */
    private ResponseEntity<Object> refused(OpenAiFailure failure, DegradationLevel level, Trace trace) {
        trace.tier = FidelityTier.F0;
        trace.errorCode = failure.code();
        count(FidelityTier.F0, false);
        ResponseEntity<Object> response = failure.response();
        return ResponseEntity.status(response.getStatusCode()).headers(response.getHeaders())
            .header(TIER_HEADER, FidelityTier.F0.name()).header(LEVEL_HEADER, level.name()).body(response.getBody());
    }

    private Completion f1(String lastUser) {
        Answer answer = faq.answer(lastUser);
        return new Completion(answer.text(), FidelityTier.F1, 0, 0, null, null);
    }

    private void count(FidelityTier tier, boolean stream) {
        completions.computeIfAbsent(tier.name() + stream, k -> meters.counter("sluice.openai.completions", "tier", tier.name(),
            "stream", Boolean.toString(stream))).increment();
    }

    // --- streaming -------------------------------------------------------------------------------

    private sealed interface Event {
        record Token(String text) implements Event {
        }

        record ToolCalls(JsonNode delta) implements Event {
        }

        record Done(LlmOutcome outcome) implements Event {
        }
    }

    /**
     * Starts the gateway stream and waits for its first event before answering, so the headers can
     * name the tier: a stream that fails before its first token becomes an F1 answer in one chunk.
     */
    private ResponseEntity<?> stream(String id, String model, DegradationLevel level, LlmGateway llm,
            LlmRequest request, String lastUser, boolean degradedOk, boolean includeUsage, HttpServletResponse response,
            Trace trace) throws IOException {
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        LlmStream running = null;
        Event first = null;
        if (llm != null) {
            running = llm.stream(request, new LlmStreamListener() {
                @Override
                public void onToken(String token) {
                    events.add(new Event.Token(token));
                }

                @Override
                public void onToolCalls(JsonNode delta) {
                    events.add(new Event.ToolCalls(delta));
                }

                @Override
                public void onComplete(LlmOutcome.Answered answered) {
                    events.add(new Event.Done(answered));
                }

                @Override
                public void onEnd(LlmOutcome outcome) {
                    events.add(new Event.Done(outcome));
                }
            });
            first = poll(events, chat.streamTimeout());
        }
        boolean llmStreams = first instanceof Event.Token || first instanceof Event.ToolCalls
            || (first instanceof Event.Done d && d.outcome() instanceof LlmOutcome.Answered);
        if (!llmStreams && running != null) {
            running.cancel();
        }
        if (!llmStreams && !degradedOk) {
            // nothing was sent yet, so the client still gets a status it can act on
            LlmOutcome outcome = first instanceof Event.Done done ? done.outcome()
                : new LlmOutcome.Degraded(LlmOutcome.Reason.TIMEOUT, "no first token in time");
            return refused(OpenAiFailure.of(outcome), level, trace);
        }
        trace.tier = llmStreams ? FidelityTier.F4 : FidelityTier.F1;
        FidelityTier tier = llmStreams ? FidelityTier.F4 : FidelityTier.F1;
        count(tier, true);
        LlmStream stream = running;
        Event head = first;
        response.setStatus(200);
        response.setHeader(TIER_HEADER, tier.name());
        response.setHeader(LEVEL_HEADER, level.name());
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
        response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
        response.setCharacterEncoding("UTF-8");
        OutputStream output = response.getOutputStream();
        {
            try {
                chunk(output, id, model, Map.of("role", "assistant", "content", ""), null);
                if (!llmStreams) {
                    chunk(output, id, model, Map.of("content", f1(lastUser).text()), null);
                    chunk(output, id, model, Map.of(), "stop");
                } else {
                    Event event = head;
                    long deadline = System.nanoTime() + chat.streamTimeout().toNanos();
                    while (event instanceof Event.Token || event instanceof Event.ToolCalls) {
                        if (event instanceof Event.Token token) {
                            chunk(output, id, model, Map.of("content", token.text()), null);
                        } else {
                            chunk(output, id, model, Map.of("tool_calls", ((Event.ToolCalls) event).delta()), null);
                        }
                        event = poll(events, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                    }
                    boolean complete = event instanceof Event.Done done && done.outcome() instanceof LlmOutcome.Answered;
                    if (!complete) {
                        // tokens already went out, so the tier cannot change any more: say the answer is
                        // broken, as OpenAI does mid-stream (an error object, no [DONE]); SDKs raise it
                        streamError(output, event == null ? "the answer stream timed out" : "the provider's stream broke");
                        trace.errorCode = "stream_broken";
                        return null;
                    }
                    LlmOutcome.Answered answered = (LlmOutcome.Answered) ((Event.Done) event).outcome();
                    answered(trace, FidelityTier.F4, answered);
                    chunk(output, id, model, Map.of(), answered.finishReason());
                    if (includeUsage) {
                        usageChunk(output, id, model, answered.promptTokens(), answered.completionTokens());
                    }
                }
                output.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
                output.flush();
                return null; // written above
            } finally {
                if (stream != null) {
                    stream.cancel(); // idempotent: frees the permit at once if the client went away
                }
            }
        }
    }

    private static Event poll(BlockingQueue<Event> events, Duration timeout) {
        try {
            return Optional.ofNullable(events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS)).orElse(null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void streamError(OutputStream output, String message) throws IOException {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("message", message + "; the answer is incomplete");
        error.put("type", "server_error");
        error.put("param", null);
        error.put("code", "stream_broken");
        output.write(("data: " + json.writeValueAsString(Map.of("error", error)) + "\n\n").getBytes(StandardCharsets.UTF_8));
        output.flush();
    }

    /** The last chunk when the client asked for {@code stream_options.include_usage}: no choices, the usage. */
    private void usageChunk(OutputStream output, String id, String model, int prompt, int completion) throws IOException {
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("id", id);
        chunk.put("object", "chat.completion.chunk");
        chunk.put("created", System.currentTimeMillis() / 1000);
        chunk.put("model", model);
        chunk.put("choices", List.of());
        chunk.put("usage", Map.of("prompt_tokens", prompt, "completion_tokens", completion, "total_tokens",
            prompt + completion));
        output.write(("data: " + json.writeValueAsString(chunk) + "\n\n").getBytes(StandardCharsets.UTF_8));
        output.flush();
    }

    private void chunk(OutputStream output, String id, String model, Map<String, Object> delta, String finish)
            throws IOException {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", 0);
        choice.put("delta", delta);
        choice.put("finish_reason", finish);
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("id", id);
        chunk.put("object", "chat.completion.chunk");
        chunk.put("created", System.currentTimeMillis() / 1000);
        chunk.put("model", model);
        chunk.put("choices", List.of(choice));
        output.write(("data: " + json.writeValueAsString(chunk) + "\n\n").getBytes(StandardCharsets.UTF_8));
        output.flush();
    }
}
