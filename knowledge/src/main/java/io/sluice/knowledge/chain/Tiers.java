package io.sluice.knowledge.chain;

import java.util.ArrayList;
import java.util.List;

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
        return new RetrievalTier() {
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

    /** Lucene KNN (embedded default, and fallback behind pgvector). */
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
                for (FaqMatch m : s.match(q.text(), q.vector(), k, q.filter().category(), q.filter().at())) {
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
