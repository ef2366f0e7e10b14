package io.sluice.api.openai;

import java.time.Duration;

import io.sluice.governance.gateway.LlmOutcome;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * What a /v1 client is told when the gateway could not answer and it did not opt in to a degraded
 * answer: an OpenAI-shaped error it can act on (retry after, fail over to another endpoint), never a
 * 200 with a canned text. Our own saturation and provider 429s are 429 with Retry-After; a spent
 * budget or a hung provider is 504; a provider that fails, an open breaker or no provider is 503.
 *
 * @param status     HTTP status
 * @param type       OpenAI error type
 * @param code       OpenAI error code
 * @param message    what happened, without echoing the request
 * @param retryAfter Retry-After, or null
 */
public record OpenAiFailure(HttpStatus status, String type, String code, String message, Duration retryAfter) {

    /** Retry-After of a refusal that does not know better (permits, breaker). */
    static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);
    /** Retry-After when the degradation level keeps the LLM off (levels move in seconds, not milliseconds). */
    static final Duration LEVEL_RETRY = Duration.ofSeconds(5);

    public static OpenAiFailure of(LlmOutcome outcome) {
        return switch (outcome) {
            case LlmOutcome.Saturated s -> s.retryAfter() != null
                ? new OpenAiFailure(HttpStatus.TOO_MANY_REQUESTS, "rate_limit_error", "rate_limit_exceeded",
                    "The model is rate-limited right now: " + s.reason(), s.retryAfter())
                : new OpenAiFailure(HttpStatus.SERVICE_UNAVAILABLE, "server_error", "overloaded",
                    "The gateway is at capacity: " + s.reason(), DEFAULT_RETRY);
            case LlmOutcome.Degraded d -> degraded(d);
            case LlmOutcome.Answered a -> throw new IllegalArgumentException("an answer is not a failure");
        };
    }

    private static OpenAiFailure degraded(LlmOutcome.Degraded d) {
        return switch (d.reason()) {
            case TIMEOUT, BUDGET_EXHAUSTED -> new OpenAiFailure(HttpStatus.GATEWAY_TIMEOUT, "server_error", "timeout",
                "No provider answered within the call's time budget", DEFAULT_RETRY);
            case RATE_LIMITED -> new OpenAiFailure(HttpStatus.TOO_MANY_REQUESTS, "rate_limit_error", "rate_limit_exceeded",
                "Every provider of this model is rate-limited", DEFAULT_RETRY);
            case BREAKER_OPEN -> new OpenAiFailure(HttpStatus.SERVICE_UNAVAILABLE, "server_error", "provider_unavailable",
                "The providers of this model are failing; the breaker is open", Duration.ofSeconds(5));
            case NOT_CONFIGURED -> new OpenAiFailure(HttpStatus.SERVICE_UNAVAILABLE, "server_error", "no_provider",
                "No LLM provider is configured", null);
            case INVALID_REQUEST -> new OpenAiFailure(HttpStatus.BAD_REQUEST, "invalid_request_error", "invalid_request",
                "The provider refused the request: " + d.detail(), null);
            case PROVIDER_ERROR, UNPARSABLE -> new OpenAiFailure(HttpStatus.SERVICE_UNAVAILABLE, "server_error",
                "provider_error", "The providers of this model failed to answer", DEFAULT_RETRY);
        };
    }

    /** The degradation level keeps the LLM off (L3) and the caller did not opt in to the FAQ answer. */
    static OpenAiFailure levelTooLow(String level) {
        return new OpenAiFailure(HttpStatus.SERVICE_UNAVAILABLE, "server_error", "degraded",
            "The platform is degraded (level " + level + ") and answers without an LLM; send "
                + DegradedOptIn.HEADER + ": true to accept such answers", LEVEL_RETRY);
    }

    ResponseEntity<Object> response() {
        return OpenAiError.of(status, type, code, null, message, retryAfter);
    }
}
