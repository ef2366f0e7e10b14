package io.sluice.api.chat;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.tier.FidelityTier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * F2→F1 shadow check, around the answering step: an F2 answer (the FAQ answer polished by the light
 * model) is compared with the FAQ answer it was made from ({@link ShadowCheck}: numbers, negation, FAQ
 * entry). On a contradiction the customer gets the FAQ answer itself, as F1 — the polish is not trusted
 * over the curated text. F2 answers are therefore made with a plain call, not streamed (the SSE stream sends
 * the checked text as one token). Counter {@code sluice.chat.shadow{outcome=agreed|numbers|negation|entry}}.
 */
public final class ShadowCheckStep implements ChatStep {

    private static final Logger log = LoggerFactory.getLogger(ShadowCheckStep.class);

    private final ShadowCheck check;
    private final boolean enabled;
    private final MeterRegistry meters;

    public ShadowCheckStep(ShadowCheck check, boolean enabled, MeterRegistry meters) {
        this.check = check;
        this.enabled = enabled;
        this.meters = meters;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        ctx.shadowCheck(enabled);
        next.proceed(ctx);
        Answer answer = ctx.answer();
        Answer reference = ctx.fastReference();
        if (!enabled || answer == null || reference == null || answer.tier() != FidelityTier.F2 || ctx.cached()) {
            return;
        }
        String contradiction;
        try {
            contradiction = check.contradiction(reference.text(), answer.text());
        } catch (RuntimeException e) {
            // the check itself failed (e.g. the embedder): the curated answer is the safe one
            log.warn("chat {}: shadow check failed, answering with the FAQ answer: {}", ctx.requestId(), e.toString());
            contradiction = "error";
        }
        meters.counter("sluice.chat.shadow", "outcome", contradiction == null ? "agreed" : contradiction).increment();
        if (contradiction != null) {
            ctx.capTier(FidelityTier.F1, "F2 polish contradicts its FAQ answer (" + contradiction + ")");
            ctx.answer(new Answer(reference.text(), FidelityTier.F1, reference.sources()));
        }
    }
}
