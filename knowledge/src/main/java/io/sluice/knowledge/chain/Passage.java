package io.sluice.knowledge.chain;

/**
 * One retrieved passage.
 *
 * @param tier      the tier that found it ({@code vector:pgvector}, {@code vector:lucene-knn}, {@code bm25},
 *                  {@code faq-snapshot})
 * @param score     tier-specific: cosine similarity for vectors, raw BM25 for lexical, blended 0..1 for FAQ
 * @param text      the chunk text, or the FAQ question/phrasing that matched
 * @param answer    for FAQ passages the curated answer; null for document chunks
 * @param category  document or FAQ category
 */
public record Passage(String tier, double score, String text, String answer, String category, Source source,
        Freshness freshness) {

    public boolean isFaq() {
        return source.faqKey() != null;
    }
}
