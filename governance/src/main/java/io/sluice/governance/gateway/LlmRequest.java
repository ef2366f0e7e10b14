package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One LLM call as a caller asks for it.
 *
 * @param lane      which lane governs it
 * @param route     a configured model route (its fallback chain); null = the lane's default route
 * @param messages  the prompt
 * @param maxTokens completion cap (also part of the token-per-minute reservation)
 * @param budget    total time budget, retries included; null = the lane's default
 */
public record LlmRequest(Lane lane, String route, List<LlmMessage> messages, int maxTokens, Duration budget) {

    public LlmRequest {
        Objects.requireNonNull(lane, "lane");
        messages = List.copyOf(messages);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("an LLM request needs at least one message");
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be positive");
        }
    }

    public static LlmRequest of(Lane lane, int maxTokens, LlmMessage... messages) {
        return new LlmRequest(lane, null, List.of(messages), maxTokens, null);
    }
}
