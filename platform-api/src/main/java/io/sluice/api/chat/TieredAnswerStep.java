package io.sluice.api.chat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sluice.api.ingress.LoadMonitor;
import io.sluice.api.session.Turn;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.tier.FidelityTier;

/**
 * Answering: the best tier the request may have and the platform can give now.
 * <ul>
 *   <li>F1 — the FAQ answer ({@link AnsweringStep}), no LLM: always available, and the fallback.</li>
 *   <li>F2 — the FAQ answer polished by the light model through the gateway's interactive lane, when
 *       the level allows F2 and a gateway is available; Saturated/Degraded fall back to F1.</li>
 *   <li>F4/F3 (retrieval + full/lean prompt) come with the knowledge module: next seam here.</li>
 * </ul>
 * LLM latency and failures feed the {@link LoadMonitor} (adaptive limiter, degradation level).
 */
public final class TieredAnswerStep implements ChatStep {

    static final String FAST_SYSTEM_PROMPT = """
        You are a customer-service assistant. Answer the customer's last message using only the reference
        answer below; keep it short and polite and reply in the customer's language. If the reference does
        not cover the question, say so and suggest contacting a human agent.
        Reference answer: %s""";

    private final AnsweringStep faq;
    private final LlmAccess llm;
    private final LoadMonitor load;
    private final ChatProperties properties;

    public TieredAnswerStep(AnsweringStep faq, LlmAccess llm, LoadMonitor load, ChatProperties properties) {
        this.faq = faq;
        this.llm = llm;
        this.load = load;
        this.properties = properties;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        Answer f1 = faq.answer(ctx.message());
        Optional<LlmGateway> gateway = llm.usable();
        if (!ctx.llmAllowed() || gateway.isEmpty() || f1.sources().isEmpty()) {
            ctx.answer(f1);
        } else {
            ctx.answer(fast(ctx, gateway.get(), f1));
        }
        next.proceed(ctx);
    }

    private Answer fast(ChatContext ctx, LlmGateway gateway, Answer f1) {
        List<LlmMessage> messages = new ArrayList<>();
        messages.add(LlmMessage.system(FAST_SYSTEM_PROMPT.formatted(f1.text())));
        List<Turn> turns = ctx.session() == null ? List.of() : ctx.session().recentTurns();
        for (Turn turn : turns.subList(Math.max(0, turns.size() - properties.historyTurns()), turns.size())) {
            messages.add(new LlmMessage("ASSISTANT".equals(turn.role()) ? LlmMessage.Role.ASSISTANT : LlmMessage.Role.USER,
                turn.content()));
        }
        messages.add(LlmMessage.user(ctx.message()));
        int maxTokens = Math.min(properties.fastMaxTokens(), ctx.knobs() == null ? properties.fastMaxTokens()
            : ctx.knobs().maxTokens());
        String route = properties.fastRoute() == null || properties.fastRoute().isBlank() ? null : properties.fastRoute();
        long started = System.nanoTime();
        LlmOutcome outcome;
        try {
            outcome = gateway.call(new LlmRequest(Lane.INTERACTIVE, route, messages, maxTokens, null));
        } catch (RuntimeException e) {
            load.record((System.nanoTime() - started) / 1_000_000, true);
            throw e;
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        if (outcome instanceof LlmOutcome.Answered answered) {
            load.record(ms, false);
            return new Answer(answered.text(), FidelityTier.F2, f1.sources());
        }
        if (outcome instanceof LlmOutcome.Degraded degraded) {
            load.record(ms, true);
            ctx.capTier(FidelityTier.F1, "LLM degraded: " + degraded.reason());
            return f1;
        }
        LlmOutcome.Saturated saturated = (LlmOutcome.Saturated) outcome;
        ctx.capTier(FidelityTier.F1, "LLM lane saturated: " + saturated.reason());
        return f1;
    }
}
