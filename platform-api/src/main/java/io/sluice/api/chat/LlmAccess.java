package io.sluice.api.chat;

import java.util.Optional;
import java.util.function.Supplier;

import io.sluice.api.ingress.UserLlmCalls;
import io.sluice.governance.gateway.LlmGateway;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.function.SingletonSupplier;

/**
 * The gateway if one is wired and has a provider; empty means the pipeline answers at F1. For one request,
 * {@link #usable(ChatContext)} gives the gateway bound to the end user's LLM-call limit ({@link UserLlmCalls}):
 * every call counts, and past the limit a call is refused as {@code Saturated} without reaching the gateway,
 * so the answer steps down to F1.
 */
public final class LlmAccess {

    private final Supplier<LlmGateway> gateway;
    private final UserLlmCalls calls;

    public LlmAccess(ObjectProvider<LlmGateway> gateway) {
        this(gateway, null);
    }

    /** @param calls the per-user LLM-call limit (null = not bounded per user) */
    public LlmAccess(ObjectProvider<LlmGateway> gateway, UserLlmCalls calls) {
        this.gateway = SingletonSupplier.of(gateway::getIfAvailable); // resolved once it exists, not per request
        this.calls = calls;
    }

    public Optional<LlmGateway> usable() {
        LlmGateway candidate = gateway.get();
        return candidate != null && candidate.available() ? Optional.of(candidate) : Optional.empty();
    }

    /** The gateway for this request's calls, each counted against its end user's LLM-call limit. */
    public Optional<LlmGateway> usable(ChatContext ctx) {
        Optional<LlmGateway> usable = usable();
        if (usable.isEmpty() || calls == null || !calls.enabled()) {
            return usable;
        }
        return Optional.of(calls.bind(usable.get(), ctx.endUser(), ctx.vip()));
    }

    /** Whether this request's answer would call the LLM. */
    public boolean wouldCall(ChatContext ctx) {
        return ctx.llmAllowed() && usable().isPresent();
    }
}
