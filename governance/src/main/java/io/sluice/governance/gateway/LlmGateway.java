package io.sluice.governance.gateway;

/**
 * The one door to the LLM provider. Every LLM call in Sluice — chat answers, intent, summaries,
 * batch work — goes through an implementation of this interface, so the gate sees every call.
 *
 * <p>Calls never throw for provider trouble: they return a typed {@link LlmOutcome} so callers step
 * down a tier instead of failing.
 */
public interface LlmGateway {

    /** Whether any provider is configured; without one every call returns {@link LlmOutcome.Degraded}. */
    boolean available();

    /** One blocking call, governed by the request's lane (permits, rules, budget, retry, fallback). */
    LlmOutcome call(LlmRequest request);

    /**
     * A streaming call. The lane permit is held for the life of the stream and released exactly once
     * on completion, error, or {@link LlmStream#cancel()}.
     */
    LlmStream stream(LlmRequest request, LlmStreamListener listener);

    /** Embeddings on the embedding lane (permits, budget, failover across the route's providers). */
    default EmbeddingOutcome embed(EmbeddingRequest request) {
        return new EmbeddingOutcome.Refused(new LlmOutcome.Degraded(LlmOutcome.Reason.NOT_CONFIGURED,
            "no LLM provider configured"));
    }
}
