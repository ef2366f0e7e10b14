package io.sluice.api.chat;

import java.util.Locale;
import java.util.concurrent.CancellationException;

import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.intent.Priority;
import io.sluice.governance.tier.FidelityTier;

/**
 * Admission: only requests that will call the LLM queue, by priority class (S/A/B, VIP, aging), for
 * a bounded time. One that cannot make its deadline, or a B request while the level does not admit
 * lane B, is answered at F1 at once instead of waiting — or, if the client accepts deferred answers,
 * queued for later (F0). The slot is held until the answer is made.
 */
public final class AdmissionStep implements ChatStep {

    private final PriorityAdmission admission;
    private final LlmAccess llm;
    private final FastOffers offers;

    public AdmissionStep(PriorityAdmission admission, LlmAccess llm) {
        this(admission, llm, null);
    }

    /** With fast-mode offers for streams whose predicted wait is long ({@link FastOffers}); null = none. */
    public AdmissionStep(PriorityAdmission admission, LlmAccess llm, FastOffers offers) {
        this.admission = admission;
        this.llm = llm;
        this.offers = offers;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        if (!llm.wouldCall(ctx)) {
            if (ctx.request().defersAccepted() && llm.usable().isPresent() && !ctx.llmAllowed()) {
                ctx.deferBecause("level " + ctx.level() + " answers without the LLM");
            }
            next.proceed(ctx);
            return;
        }
        if (ctx.priority() == Priority.B && !ctx.knobs().laneBAdmitted()) {
            shed(ctx, "lane B not admitted at " + ctx.level());
            next.proceed(ctx);
            return;
        }
        io.sluice.api.admission.WaitOffer offer = offers == null ? null : offers.offerFor(ctx);
        try (PriorityAdmission.Ticket ticket = admission.admit(ctx.priority(), ctx.vip(), ctx.queueListener(),
                offer)) {
            if (offer != null) {
                offers.done(ctx.requestId());
            }
            ctx.queueWaitMs(ticket.waitedMs());
            if (ticket instanceof PriorityAdmission.Declined declined
                    && declined.reason() == PriorityAdmission.Reason.WITHDRAWN) {
                withdrawn(ctx);
                next.proceed(ctx);
                return;
            }
            if (ticket instanceof PriorityAdmission.Declined declined
                    && declined.reason() == PriorityAdmission.Reason.INTERRUPTED) {
                // the caller went away while queued (SSE disconnect): stop here, record nothing
                throw new CancellationException("request cancelled while waiting for admission");
            }
            if (ticket instanceof PriorityAdmission.Declined declined) {
                shed(ctx, "admission: " + declined.reason().name().toLowerCase(Locale.ROOT)
                    + (declined.etaMs() > 0 ? " (eta " + declined.etaMs() + " ms)" : ""));
            }
            next.proceed(ctx);
        }
    }

    /**
     * The client answered the fast-mode offer: a fast answer now (F2, or F1 when the light model's permits
     * are taken: the gateway's permits still bound the provider, only the admission queue is skipped), or a
     * deferred answer (F0; F1 if the queue cannot take it).
     */
    private static void withdrawn(ChatContext ctx) {
        if (ctx.offerChoice() == io.sluice.api.admission.WaitOffer.Choice.DEFER) {
            ctx.capTier(FidelityTier.F1, "offer: client chose a deferred answer");
            ctx.deferBecause("offer: client chose a deferred answer");
        } else {
            ctx.capTier(FidelityTier.F2, "offer: client chose a fast answer");
        }
    }

    private static void shed(ChatContext ctx, String reason) {
        ctx.capTier(FidelityTier.F1, reason);
        if (ctx.request().defersAccepted()) {
            ctx.deferBecause(reason);
        }
    }
}
