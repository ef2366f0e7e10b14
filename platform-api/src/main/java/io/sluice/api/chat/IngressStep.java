package io.sluice.api.chat;

import io.sluice.api.ingress.GlobalLimiter;
import io.sluice.api.ingress.RateLimitedException;
import io.sluice.api.ingress.UserTokenBucket;

/**
 * Ingress: the user's own token bucket first (so a heavy user is stopped by their own limit before
 * taking platform capacity), then the client's share of the adaptive global limiter and the global rate
 * itself (so no client can starve the others). Refusals are 429 with Retry-After and the scope.
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
        GlobalLimiter.Decision admission = global.admit(Long.toString(ctx.client().id()));
        if (!admission.admitted()) {
            throw new RateLimitedException(admission.scope(), admission.retryAfter());
        }
        next.proceed(ctx);
    }
}
