package io.sluice.governance.gateway;

/** The embedded default: no provider configured, so every call degrades at once and callers answer at F1. */
public final class DisabledLlmGateway implements LlmGateway {

    private static final LlmOutcome.Degraded NOT_CONFIGURED = new LlmOutcome.Degraded(LlmOutcome.Reason.NOT_CONFIGURED,
        "no LLM provider configured (sluice.gateway.base-url is blank)");

    @Override
    public boolean available() {
        return false;
    }

    @Override
    public LlmOutcome call(LlmRequest request) {
        return NOT_CONFIGURED;
    }

    @Override
    public LlmStream stream(LlmRequest request, LlmStreamListener listener) {
        listener.onEnd(NOT_CONFIGURED);
        return new LlmStream() {
            @Override
            public void cancel() {
            }

            @Override
            public boolean finished() {
                return true;
            }
        };
    }
}
