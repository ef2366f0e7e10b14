package io.sluice.api.chat;

import java.util.List;

import io.sluice.governance.tier.FidelityTier;

/**
 * Where a streaming request's answer goes while the LLM writes it (the SSE controller). The answering
 * step calls {@link #begin} once, just before the first token, when the tier and sources are known;
 * a tier that fails before its first token is stepped down silently.
 */
public interface AnswerStream {

    void begin(ChatContext ctx, FidelityTier tier, List<ChatResponse.Source> sources);

    void token(String text);

    /** Whether {@link #begin} was called (tokens went out: the answer can no longer change tier). */
    boolean begun();

    /**
     * Offers the client a fast answer now instead of its predicted wait (the SSE {@code offer} event);
     * false when it cannot be asked.
     */
    default boolean offer(ChatContext ctx, int position, long etaMs, long decideWithinMs) {
        return false;
    }
}
