package io.sluice.knowledge.chain;

import java.util.List;

/** One step of the retrieval chain. Implementations throw when their backing store fails. */
public interface RetrievalTier {

    String name();

    TierKind kind();

    List<Passage> search(TierQuery query, int k) throws Exception;

    /**
     * In-memory tiers that cannot block run on the caller's thread, so the last resort answers even
     * when the tier pool is saturated.
     */
    default boolean inline() {
        return false;
    }

    /** Non-null when this tier should not handle the query (recorded as SKIPPED with this reason). */
    default String skipReason(TierQuery query) {
        return null;
    }
}
