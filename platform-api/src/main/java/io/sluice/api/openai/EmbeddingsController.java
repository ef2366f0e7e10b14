package io.sluice.api.openai;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.sluice.api.auth.ApiClient;
import io.sluice.api.openai.keys.KeyBudgets;
import io.sluice.api.openai.keys.RequestLog;
import io.sluice.governance.gateway.EmbeddingOutcome;
import io.sluice.governance.gateway.EmbeddingRequest;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.GatewayProperties;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.route.ModelRoutes;
import io.sluice.governance.tier.FidelityTier;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/embeddings}: governed on the gateway's embedding lane (its own permits and budget,
 * failover across the route's providers), with the key's model scope and budgets, spend and request log
 * like chat completions. {@code input} is a string or an array of strings (at most {@value #MAX_INPUTS}).
 */
@RestController
public class EmbeddingsController {

    static final int MAX_INPUTS = 256;
    static final int MAX_INPUT_CHARS = 32_000;

    private final Supplier<LlmGateway> gateway;
    private final ModelRoutes routes;
    private final KeyBudgets budgets;
    private final RequestLog requestLog;

    public EmbeddingsController(ObjectProvider<LlmGateway> gateway, GatewayProperties gatewayProperties, KeyBudgets budgets,
            RequestLog requestLog) {
        this.gateway = SingletonSupplier.of(gateway::getIfAvailable);
        this.routes = GatewayAssembly.routes(gatewayProperties);
        this.budgets = budgets;
        this.requestLog = requestLog;
    }

    @PostMapping(path = "/v1/embeddings", consumes = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<?> embeddings(ApiClient client, @RequestBody JsonNode body) {
        long started = System.nanoTime();
        String model = body.path("model").asString("");
        String route = routes.resolveName(model);
        String user = body.path("user").asString("openai");
        ResponseEntity<?> response;
        String provider = null;
        int tokens = 0;
        List<String> inputs = inputs(body.path("input"));
        if (model.isBlank()) {
            response = OpenAiError.invalid("model", "model is required");
        } else if (route == null) {
            response = OpenAiError.of(HttpStatus.NOT_FOUND, "invalid_request_error", "model_not_found", "model",
                "The model does not exist; GET /v1/models lists the models this gateway serves", null);
        } else if (inputs == null) {
            response = OpenAiError.invalid("input", "input must be a non-empty string or an array of at most " + MAX_INPUTS
                + " non-empty strings of at most " + MAX_INPUT_CHARS + " characters");
        } else {
            KeyBudgets.Decision decision = budgets.check(client.id(), model, route);
            if (decision instanceof KeyBudgets.Decision.ModelNotAllowed) {
                response = OpenAiError.of(HttpStatus.FORBIDDEN, "permission_error", "model_not_allowed", "model",
                    "This API key may not use this model", null);
            } else if (decision instanceof KeyBudgets.Decision.OverBudget over) {
                response = OpenAiError.of(HttpStatus.TOO_MANY_REQUESTS, "insufficient_quota", "budget_exceeded", null,
                    "This API key has spent its " + over.which(), over.retryAfter());
            } else {
                LlmGateway llm = gateway.get();
                EmbeddingOutcome outcome = llm == null ? new EmbeddingOutcome.Refused(
                    new io.sluice.governance.gateway.LlmOutcome.Degraded(
                        io.sluice.governance.gateway.LlmOutcome.Reason.NOT_CONFIGURED, "no provider"))
                    : llm.embed(new EmbeddingRequest(route, inputs, null));
                if (outcome instanceof EmbeddingOutcome.Embedded embedded) {
                    provider = embedded.provider();
                    tokens = embedded.promptTokens();
                    budgets.record(client.id(), user.length() > 128 ? user.substring(0, 128) : user, embedded.model(),
                        provider, tokens, 0);
                    response = ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                        .body(answer(model, embedded, "base64".equals(body.path("encoding_format").asString(""))));
                } else {
                    response = OpenAiFailure.of(((EmbeddingOutcome.Refused) outcome).reason()).response();
                }
            }
        }
        int status = response.getStatusCode().value();
        requestLog.write(new RequestLog.Entry(null, client.id(), user.length() > 128 ? user.substring(0, 128) : user,
            model.length() > 200 ? model.substring(0, 200) : model, route, provider, status,
            status < 300 ? FidelityTier.F4.name() : FidelityTier.F0.name(),
            (int) ((System.nanoTime() - started) / 1_000_000), tokens, 0, false, status < 300 ? null : "embedding_refused"));
        return response;
    }

    private static List<String> inputs(JsonNode input) {
        List<String> texts = new ArrayList<>();
        if (input.isString()) {
            texts.add(input.asString());
        } else if (input.isArray() && input.size() <= MAX_INPUTS) {
            for (JsonNode i : input) {
                if (!i.isString()) {
                    return null;
                }
                texts.add(i.asString());
            }
        }
        if (texts.isEmpty() || texts.stream().anyMatch(t -> t.isBlank() || t.length() > MAX_INPUT_CHARS)) {
            return null;
        }
        return texts;
    }

    /** {@code encoding_format: base64} (what the SDKs ask for by default): little-endian float32, base64. */
    private static Map<String, Object> answer(String model, EmbeddingOutcome.Embedded embedded, boolean base64) {
        List<Map<String, Object>> data = new ArrayList<>();
        for (int i = 0; i < embedded.vectors().size(); i++) {
            float[] v = embedded.vectors().get(i);
            Object encoded;
            if (base64) {
                java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(v.length * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                for (float x : v) {
                    bytes.putFloat(x);
                }
                encoded = java.util.Base64.getEncoder().encodeToString(bytes.array());
            } else {
                List<Float> values = new ArrayList<>(v.length);
                for (float x : v) {
                    values.add(x);
                }
                encoded = values;
            }
            data.add(Map.of("object", "embedding", "index", i, "embedding", encoded));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "list");
        body.put("data", data);
        body.put("model", model);
        body.put("usage", Map.of("prompt_tokens", embedded.promptTokens(), "total_tokens", embedded.promptTokens()));
        return body;
    }
}
