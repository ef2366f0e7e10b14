package io.sluice.governance.provider;

import java.time.Duration;
import java.util.List;

import io.sluice.governance.gateway.LlmChoice;

/** What one attempt at the provider ended with. */
public sealed interface ProviderResult {

    RateLimitInfo rateLimit();

    /** A 200 with every choice (tool calls and finish reason included) and the provider's usage. */
    record Answered(String text, int promptTokens, int completionTokens, RateLimitInfo rateLimit, List<LlmChoice> choices)
            implements ProviderResult {

        public Answered {
            choices = choices == null || choices.isEmpty() ? List.of(new LlmChoice(0, text, null, "stop")) : List.copyOf(choices);
        }

        public Answered(String text, int promptTokens, int completionTokens, RateLimitInfo rateLimit) {
            this(text, promptTokens, completionTokens, rateLimit, null);
        }
    }

    /** HTTP 429: a rate signal, not a failure. */
    record RateLimited(Duration retryAfter, RateLimitInfo rateLimit) implements ProviderResult {
    }

    record Failed(Kind kind, String detail, RateLimitInfo rateLimit) implements ProviderResult {
    }

    /**
     * CLIENT_ERROR: the provider refused our credentials or the model (401/403/404): another provider may
     * work. INVALID_REQUEST: it refused the request itself (400/413/422): no provider will take it.
     */
    enum Kind { TIMEOUT, SERVER_ERROR, CLIENT_ERROR, INVALID_REQUEST, UNPARSABLE, IO }
}
