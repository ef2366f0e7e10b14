package io.sluice.api.chat;

import java.util.List;

import io.sluice.governance.tier.FidelityTier;

/** What an answering step produced, before it is recorded and returned. */
public record Answer(String text, FidelityTier tier, List<ChatResponse.Source> sources) {

    public Answer {
        sources = List.copyOf(sources);
    }
}
