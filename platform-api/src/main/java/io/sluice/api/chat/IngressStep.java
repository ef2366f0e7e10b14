package io.sluice.api.chat;

import io.sluice.api.ingress.EndUserVip;
import io.sluice.api.ingress.GlobalLimiter;
import io.sluice.api.ingress.RateLimitedException;
import io.sluice.api.ingress.UserTokenBucket;
import io.sluice.governance.tier.FidelityTier;

/**
 * Ingress: the user's own token bucket first (so a heavy user is stopped by their own limit before
 * taking platform capacity), then the client's share of the adaptive global limiter and the global rate
 * itself (so no client can starve the others). Refusals are 429 with Retry-After and the scope. VIP is the
 * client's tier or the end user's own attribute ({@link EndUserVip}); a user's first successful answer
 * lets their bucket fill to its full capacity ({@link UserTokenBucket#markAnswered}).
 */
public final class IngressStep implements ChatStep {

    private final UserTokenBucket buckets;
    private final GlobalLimiter global;
    private final EndUserVip endUserVip;

    public IngressStep(UserTokenBucket buckets, GlobalLimiter global) {
        this(buckets, global, null);
    }

    /** @param endUserVip VIP end users of each client (null = VIP only per client) */
    public IngressStep(UserTokenBucket buckets, GlobalLimiter global, EndUserVip endUserVip) {
        this.buckets = buckets;
        this.global = global;
        this.endUserVip = endUserVip;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        boolean vip = ctx.client().vip()
            || endUserVip != null && endUserVip.isVip(ctx.client().id(), ctx.request().userId());
        ctx.vip(vip);
        UserTokenBucket.Decision decision = buckets.take(ctx.endUser(), vip);
        if (!decision.allowed()) {
            throw new RateLimitedException(RateLimitedException.Scope.USER, decision.retryAfter());
        }
        GlobalLimiter.Decision admission = global.admit(Long.toString(ctx.client().id()));
        if (!admission.admitted()) {
            throw new RateLimitedException(admission.scope(), admission.retryAfter());
        }
        next.proceed(ctx);
        Answer answer = ctx.answer();
        if (answer != null && answer.tier() != FidelityTier.F0) {
            buckets.markAnswered(ctx.endUser(), vip); // from now on the user's bucket fills to its full capacity
        }
    }
}
