package io.sluice.api.chat;

import java.util.List;
import java.util.UUID;

import io.sluice.governance.tier.FidelityTier;

/** The answer, with the tier that produced it named honestly. */
public record ChatResponse(
    String answer,
    FidelityTier tier,
    String badge,
    List<Source> sources,
    UUID requestId,
    UUID sessionId,
    long latencyMs) {

    /** Where an answer came from. */
    public record Source(String kind, String id, String title, Float score) {
    }
}
