package io.sluice.knowledge.chain;

import java.util.ArrayList;
import java.util.List;

import io.sluice.knowledge.embedding.Scripts;
import io.sluice.knowledge.faq.FaqMatch;
import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.vector.PgVectorSearcher;

/** The standard tiers, as small adapters over their stores. */
public final class Tiers {

    private Tiers() {
    }

    /** pgvector HNSW (external mode). */
    public static RetrievalTier pgvector(PgVectorSearcher searcher) {
        return pgvector(searcher, null);
    }

    /**
     * pgvector HNSW (external mode) that steps aside for Latin-script queries when {@code englishRoute}
     * (the Lucene index behind it in the chain) has the English model: pgvector holds only the
     * Chinese model's vectors, which rank English paraphrases poorly.
     */
    public static RetrievalTier pgvector(PgVectorSearcher searcher, LuceneIndex englishRoute) {
        return new RetrievalTier() {
            @Override
            public String skipReason(TierQuery q) {
                return englishRoute != null && englishRoute.hasEnglishModel() && Scripts.latin(q.text())
                    ? "Latin-script query: routed to the English model (" + LuceneIndex.TIER_KNN + ")" : null;
            }

            @Override
            public String name() {
                return PgVectorSearcher.TIER;
            }

            @Override
            public TierKind kind() {
                return TierKind.VECTOR;
            }

            @Override
            public List<Passage> search(TierQuery q, int k) {
                return searcher.search(q.vector(), q.filter(), k);
            }
        };
    }

    /**
     * Lucene KNN (embedded default, and fallback behind pgvector). Latin-script queries use the
     * English model when the index has one (falling back to the main model when no English vector
     * matches, e.g. an index written before the model was added).
     */
    public static RetrievalTier luceneKnn(LuceneIndex index) {
        return new RetrievalTier() {
            @Override
            public String name() {
                return LuceneIndex.TIER_KNN;
            }

            @Override
            public TierKind kind() {
                return TierKind.VECTOR;
            }

            @Override
            public List<Passage> search(TierQuery q, int k) {
                if (index.hasEnglishModel() && Scripts.latin(q.text())) {
                    List<Passage> english = index.searchKnnEnglish(q.text(), q.filter(), k);
                    if (!english.isEmpty()) {
                        return english;
                    }
                }
                return index.searchKnn(q.vector(), q.filter(), k);
            }
        };
    }

    /** Lucene BM25. */
    public static RetrievalTier bm25(LuceneIndex index) {
        return new RetrievalTier() {
            @Override
            public String name() {
                return LuceneIndex.TIER_BM25;
            }

            @Override
            public TierKind kind() {
                return TierKind.LEXICAL;
            }

            @Override
            public List<Passage> search(TierQuery q, int k) {
                return index.searchBm25(q.text(), q.filter(), k);
            }
        };
    }

    public static final String FAQ_TIER = "faq-snapshot";
    /** {@link Passage#tier()} of hits found with the English model (the answering tier stays lucene-knn). */
    public static final String ENGLISH_VECTOR_PASSAGE = LuceneIndex.TIER_KNN_ENGLISH;

    /** The published FAQ snapshot, in memory: the last resort, always available. */
    public static RetrievalTier faqSnapshot(FaqSnapshotService snapshots) {
        return new RetrievalTier() {
            @Override
            public String name() {
                return FAQ_TIER;
            }

            @Override
            public TierKind kind() {
                return TierKind.FAQ;
            }

            @Override
            public boolean inline() {
                return true;
            }

            @Override
            public List<Passage> search(TierQuery q, int k) {
                FaqSnapshot s = snapshots.current();
                List<Passage> out = new ArrayList<>();
                for (FaqMatch m : snapshots.match(s, q.text(), q.vector(), k, q.filter().category(), q.filter().at())) {
                    out.add(faqPassage(m, s));
                }
                return out;
            }
        };
    }

    static Passage faqPassage(FaqMatch m, FaqSnapshot s) {
        String key = m.entry().key();
        return new Passage(FAQ_TIER, m.score(), m.matched(), m.entry().answer(), m.entry().category(),
            new Source(Source.FAQ_DOCUMENT_PREFIX + key, m.entry().question(), "", null, key),
            new Freshness(m.entry().updatedAt() != null ? m.entry().updatedAt() : s.createdAt(), m.entry().validUntil()));
    }
}
