package io.sluice.api.chat;

import java.util.Optional;

/**
 * Seam for the semantic cache (L1 exact, L2 embedding similarity at the level's threshold, verified,
 * single-flight), which arrives with the knowledge module's embeddings. Without a bean of this type
 * the cache step passes every request on.
 */
public interface SemanticCache {

    /** A verified hit for this request (its level's threshold is in {@code ctx.knobs()}). */
    Optional<Hit> lookup(ChatContext ctx);

    /** Offers a fresh answer; the cache decides whether it may be kept (tier, single intent, …). */
    void offer(ChatContext ctx);

    record Hit(Answer answer, double similarity) {
    }
}
