package io.sluice.governance.gateway;

import java.time.Duration;

/** What a governed call ended with. Callers switch on it; provider trouble is never an exception. */
public sealed interface LlmOutcome {

    /** The provider answered. */
    record Answered(String text, String model, int promptTokens, int completionTokens, int attempts,
            boolean fallbackModel) implements LlmOutcome {
    }

    /** Our own limits refused the call (no permit in time, token budget, shared 429 cool-down). */
    record Saturated(Lane lane, Duration retryAfter, String reason) implements LlmOutcome {
    }

    /** Every model in the chain failed or is off (timeout, 5xx, breaker open, unparsable, no LLM). */
    record Degraded(Reason reason, String detail) implements LlmOutcome {
    }

    enum Reason { NOT_CONFIGURED, TIMEOUT, PROVIDER_ERROR, RATE_LIMITED, BREAKER_OPEN, UNPARSABLE, BUDGET_EXHAUSTED }
}
