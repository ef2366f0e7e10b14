package io.sluice.governance.provider;

import java.time.Duration;

/** What one attempt at the provider ended with. */
public sealed interface ProviderResult {

    RateLimitInfo rateLimit();

    record Answered(String text, int promptTokens, int completionTokens, RateLimitInfo rateLimit) implements ProviderResult {
    }

    /** HTTP 429: a rate signal, not a failure. */
    record RateLimited(Duration retryAfter, RateLimitInfo rateLimit) implements ProviderResult {
    }

    record Failed(Kind kind, String detail, RateLimitInfo rateLimit) implements ProviderResult {
    }

    enum Kind { TIMEOUT, SERVER_ERROR, CLIENT_ERROR, UNPARSABLE, IO }
}
