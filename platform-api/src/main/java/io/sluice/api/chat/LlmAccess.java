package io.sluice.api.chat;

import java.util.Optional;

import io.sluice.governance.gateway.LlmGateway;

import org.springframework.beans.factory.ObjectProvider;

/** The gateway if one is wired and has a provider; empty means the pipeline answers at F1. */
public final class LlmAccess {

    private final ObjectProvider<LlmGateway> gateway;

    public LlmAccess(ObjectProvider<LlmGateway> gateway) {
        this.gateway = gateway;
    }

    public Optional<LlmGateway> usable() {
        LlmGateway candidate = gateway.getIfAvailable();
        return candidate != null && candidate.available() ? Optional.of(candidate) : Optional.empty();
    }

    /** Whether this request's answer would call the LLM. */
    public boolean wouldCall(ChatContext ctx) {
        return ctx.llmAllowed() && usable().isPresent();
    }
}
