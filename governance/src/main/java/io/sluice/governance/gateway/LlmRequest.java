package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One LLM call as a caller asks for it.
 *
 * @param lane      which lane governs it
 * @param route     a configured model (the head of its fallback chain); null = the lane's default route
 * @param messages  the prompt
 * @param maxTokens completion cap (also part of the token-per-minute reservation)
 * @param budget    total time budget, retries included; null = the lane's default
 * @param check     decides whether an answer is usable (e.g. {@code IntentParser.check(...)}); an
 *                  unusable answer is a failure (retried, counted by the breaker)
 * @param parameters generation parameters, tools and response format passed to the provider verbatim
 * @param type      what the call is for (token allocation by type); null = {@link RequestType#defaultFor} the lane
 */
public record LlmRequest(Lane lane, String route, List<LlmMessage> messages, int maxTokens, Duration budget,
        ResponseCheck check, LlmParameters parameters, RequestType type) {

    public LlmRequest {
        Objects.requireNonNull(lane, "lane");
        messages = List.copyOf(messages);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("an LLM request needs at least one message");
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be positive");
        }
        if (budget != null && (budget.isNegative() || budget.isZero())) {
            throw new IllegalArgumentException("budget must be positive");
        }
        check = check == null ? ResponseCheck.NON_EMPTY : check;
        parameters = parameters == null ? LlmParameters.NONE : parameters;
        type = type == null ? RequestType.defaultFor(lane) : type;
    }

    public LlmRequest(Lane lane, String route, List<LlmMessage> messages, int maxTokens, Duration budget,
            ResponseCheck check, LlmParameters parameters) {
        this(lane, route, messages, maxTokens, budget, check, parameters, null);
    }

    public LlmRequest(Lane lane, String route, List<LlmMessage> messages, int maxTokens, Duration budget,
            ResponseCheck check) {
        this(lane, route, messages, maxTokens, budget, check, LlmParameters.NONE);
    }

    public LlmRequest(Lane lane, String route, List<LlmMessage> messages, int maxTokens, Duration budget) {
        this(lane, route, messages, maxTokens, budget, ResponseCheck.NON_EMPTY);
    }

    public static LlmRequest of(Lane lane, int maxTokens, LlmMessage... messages) {
        return new LlmRequest(lane, null, List.of(messages), maxTokens, null, ResponseCheck.NON_EMPTY, LlmParameters.NONE, null);
    }

    public LlmRequest withBudget(Duration newBudget) {
        return new LlmRequest(lane, route, messages, maxTokens, newBudget, check, parameters, type);
    }

    public LlmRequest withRoute(String newRoute) {
        return new LlmRequest(lane, newRoute, messages, maxTokens, budget, check, parameters, type);
    }

    public LlmRequest withCheck(ResponseCheck newCheck) {
        return new LlmRequest(lane, route, messages, maxTokens, budget, newCheck, parameters, type);
    }

    public LlmRequest withParameters(LlmParameters newParameters) {
        return new LlmRequest(lane, route, messages, maxTokens, budget, check, newParameters, type);
    }

    public LlmRequest withType(RequestType newType) {
        return new LlmRequest(lane, route, messages, maxTokens, budget, check, parameters, newType);
    }

    public LlmRequest withMaxTokens(int newMaxTokens) {
        return new LlmRequest(lane, route, messages, newMaxTokens, budget, check, parameters, type);
    }
}
