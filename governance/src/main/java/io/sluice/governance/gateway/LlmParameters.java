package io.sluice.governance.gateway;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.JsonNode;

/**
 * Generation parameters passed to the provider verbatim (temperature, top_p, stop, seed, penalties,
 * tools, tool_choice, response_format, n, user, ...). The front door decides which names a client may
 * send ({@link #PASS_THROUGH}); the gateway never drops or rewrites one.
 *
 * @param values parameter name → JSON value, as the client sent it
 */
public record LlmParameters(Map<String, JsonNode> values) {

    public static final LlmParameters NONE = new LlmParameters(Map.of());

    /** OpenAI chat-completion parameters that go to the provider as they are. */
    public static final Set<String> PASS_THROUGH = Set.of("temperature", "top_p", "stop", "seed", "presence_penalty",
        "frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "tools", "tool_choice", "parallel_tool_calls",
        "response_format", "n", "user", "reasoning_effort", "service_tier", "metadata", "prediction", "modalities");

    /** Present when the client capped with {@code max_completion_tokens}: the provider gets that name too. */
    public static final String MAX_COMPLETION_TOKENS = "max_completion_tokens";

    public LlmParameters {
        values = values == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** How many choices the caller asked for ({@code n}, default 1). */
    public int choices() {
        JsonNode n = values.get("n");
        return n == null || !n.isNumber() ? 1 : Math.max(1, n.asInt());
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }
}
