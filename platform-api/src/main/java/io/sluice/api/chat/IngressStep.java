package io.sluice.api.chat;

import java.time.Duration;

import io.sluice.api.ingress.GlobalLimiter;
import io.sluice.api.ingress.RateLimitedException;
import io.sluice.api.ingress.UserTokenBucket;

/**
 * Ingress: the user's own token bucket first (so a heavy user is stopped by their own limit before
 * taking platform capacity), then the adaptive global limiter. Refusals are 429 with Retry-After.
 */
public final class IngressStep implements ChatStep {

    private final UserTokenBucket buckets;
    private final GlobalLimiter global;

    public IngressStep(UserTokenBucket buckets, GlobalLimiter global) {
        this.buckets = buckets;
        this.global = global;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        UserTokenBucket.Decision decision = buckets.take(ctx.client().id() + ":" + ctx.request().userId(),
            ctx.client().vip());
        if (!decision.allowed()) {
            throw new RateLimitedException(RateLimitedException.Scope.USER, decision.retryAfter());
        }
        Duration wait = global.tryAcquire();
        if (!wait.isZero()) {
            throw new RateLimitedException(RateLimitedException.Scope.GLOBAL, wait);
        }
        next.proceed(ctx);
    }
}
