package io.sluice.api.chat;

import java.util.List;

import io.sluice.governance.tier.FidelityTier;

/**
 * What an answering step produced, before it is recorded and returned.
 *
 * @param ticket for a deferred (F0) answer, where to fetch it later; else null
 */
public record Answer(String text, FidelityTier tier, List<ChatResponse.Source> sources, DeferredAnswers.Ticket ticket) {

    public Answer {
        sources = List.copyOf(sources);
    }

    public Answer(String text, FidelityTier tier, List<ChatResponse.Source> sources) {
        this(text, tier, sources, null);
    }
}
