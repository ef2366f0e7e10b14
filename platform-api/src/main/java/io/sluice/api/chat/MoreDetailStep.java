package io.sluice.api.chat;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.tier.FidelityTier;

/**
 * "More detail" ({@code POST /api/v1/chat/{requestId}/feedback {"moreDetail": true}}): the customer found the
 * answer too thin, so it is never served again from the semantic cache ({@link CacheStep} passes it by) and
 * it asks for the full tier. When the level allows F4 now, the answering step starts there; when it does not
 * (L1–L3 cap the tier), the question is deferred for the full answer the batch drain makes (F0, ticket)
 * rather than answered again at the same lower tier. Counter {@code sluice.chat.more_detail{outcome=f4|deferred}}.
 */
public final class MoreDetailStep implements ChatStep {

    private final LlmAccess llm;
    private final MeterRegistry meters;

    public MoreDetailStep(LlmAccess llm, MeterRegistry meters) {
        this.llm = llm;
        this.meters = meters;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        if (ctx.moreDetail() && llm.usable().isPresent()) {   // no LLM configured at all: nothing to wait for
            boolean full = ctx.tierCap() == FidelityTier.F4;
            if (!full) {
                String reason = "more detail asked, F4 not allowed now (" + ctx.capReason() + ")";
                ctx.deferBecause(reason);
                ctx.capTier(FidelityTier.F1, reason);   // no admission slot for an answer that will be deferred
            }
            meters.counter("sluice.chat.more_detail", "outcome", full ? "f4" : "deferred").increment();
        }
        next.proceed(ctx);
    }
}
