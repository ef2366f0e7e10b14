package io.sluice.api.ingress;

import java.time.Duration;

/** A request refused at the door: answered 429 with Retry-After. */
public class RateLimitedException extends RuntimeException {

    /** Who was over its rate: the user, the client (its share of the platform), the platform. */
    public enum Scope { USER, CLIENT, GLOBAL }

    private final Scope scope;
    private final Duration retryAfter;

    public RateLimitedException(Scope scope, Duration retryAfter) {
        super(switch (scope) {
            case USER -> "too many requests for this user";
            case CLIENT -> "the client is at its share of the platform's admission rate";
            case GLOBAL -> "the platform is at its admission rate";
        });
        this.scope = scope;
        this.retryAfter = retryAfter;
    }

    public Scope scope() {
        return scope;
    }

    public Duration retryAfter() {
        return retryAfter;
    }

    /** Whole seconds for the Retry-After header, at least 1. */
    public long retryAfterSeconds() {
        return Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    }
}
