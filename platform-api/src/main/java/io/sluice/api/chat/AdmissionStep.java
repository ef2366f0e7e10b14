package io.sluice.api.chat;

import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.intent.Priority;
import io.sluice.governance.tier.FidelityTier;

/**
 * Admission: only requests that will call the LLM queue, by priority class (S/A/B, VIP, aging), for
 * a bounded time. One that cannot make its deadline, or a B request while the level does not admit
 * lane B, is answered at F1 at once instead of waiting. The slot is held until the answer is made.
 */
public final class AdmissionStep implements ChatStep {

    private final PriorityAdmission admission;
    private final LlmAccess llm;

    public AdmissionStep(PriorityAdmission admission, LlmAccess llm) {
        this.admission = admission;
        this.llm = llm;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        if (!llm.wouldCall(ctx)) {
            next.proceed(ctx);
            return;
        }
        if (ctx.priority() == Priority.B && !ctx.knobs().laneBAdmitted()) {
            ctx.capTier(FidelityTier.F1, "lane B not admitted at " + ctx.level());
            next.proceed(ctx);
            return;
        }
        try (PriorityAdmission.Ticket ticket = admission.admit(ctx.priority(), ctx.client().vip(), ctx.queueListener())) {
            ctx.queueWaitMs(ticket.waitedMs());
            if (ticket instanceof PriorityAdmission.Declined declined
                    && declined.reason() == PriorityAdmission.Reason.INTERRUPTED) {
                // the caller went away while queued (SSE disconnect): stop here, record nothing
                throw new java.util.concurrent.CancellationException("request cancelled while waiting for admission");
            }
            if (ticket instanceof PriorityAdmission.Declined declined) {
                ctx.capTier(FidelityTier.F1, "admission: " + declined.reason().name().toLowerCase(java.util.Locale.ROOT)
                    + (declined.etaMs() > 0 ? " (eta " + declined.etaMs() + " ms)" : ""));
            }
            next.proceed(ctx);
        }
    }
}
