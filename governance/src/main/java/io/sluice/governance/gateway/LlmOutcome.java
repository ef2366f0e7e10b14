package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.List;

/** What a governed call ended with. Callers switch on it; provider trouble is never an exception. */
public sealed interface LlmOutcome {

    /**
     * The provider answered.
     *
     * @param text          the first choice's text
     * @param model         the provider's model name that answered
     * @param fallbackModel whether a later route of the fallback chain answered (not the route asked for)
     * @param choices       every choice, with its tool calls and finish reason, as the provider gave them
     * @param provider      the configured provider that answered (null when unknown)
     */
    record Answered(String text, String model, int promptTokens, int completionTokens, int attempts,
            boolean fallbackModel, List<LlmChoice> choices, String provider) implements LlmOutcome {

        public Answered {
            choices = choices == null || choices.isEmpty() ? List.of(new LlmChoice(0, text, null, "stop"))
                : List.copyOf(choices);
        }

        public Answered(String text, String model, int promptTokens, int completionTokens, int attempts,
                boolean fallbackModel) {
            this(text, model, promptTokens, completionTokens, attempts, fallbackModel, null, null);
        }

        /** The first choice's finish reason (stop, length, tool_calls, ...). */
        public String finishReason() {
            String reason = choices.get(0).finishReason();
            return reason == null ? "stop" : reason;
        }
    }

    /** Our own limits refused the call (no permit in time, token budget, shared 429 cool-down). */
    record Saturated(Lane lane, Duration retryAfter, String reason) implements LlmOutcome {
    }

    /** Every model in the chain failed or is off (timeout, 5xx, breaker open, unparsable, no LLM). */
    record Degraded(Reason reason, String detail) implements LlmOutcome {
    }

    /** INVALID_REQUEST: the provider refused the request itself (400/422): not retried, not a provider failure. */
    enum Reason { NOT_CONFIGURED, TIMEOUT, PROVIDER_ERROR, RATE_LIMITED, BREAKER_OPEN, UNPARSABLE, BUDGET_EXHAUSTED,
        INVALID_REQUEST }
}
