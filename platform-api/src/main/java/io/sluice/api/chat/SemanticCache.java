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

    /**
     * @param intent the intent the entry's question was classified with when it was stored (an exact hit
     *               reports it instead of classifying again), or null: the request is classified as usual
     */
    record Hit(Answer answer, double similarity, io.sluice.api.intent.IntentResult intent) {
        public Hit(Answer answer, double similarity) {
            this(answer, similarity, null);
        }
    }
}
