package io.sluice.knowledge.lexical;

import java.util.Locale;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * Chinese-aware analyzers for the BM25 tier: {@code cjk} (overlapping CJK bigrams + standard
 * English tokens) or {@code smartcn} (HMM word segmentation). Measured on the eval set in
 * docs/knowledge.md: {@code smartcn} scored higher (hit@5 0.455 vs 0.416), so it is the default.
 */
public final class LexicalAnalyzers {

    private LexicalAnalyzers() {
    }

    /**
     * smartcn's own stop set (punctuation) plus English stop words: without them an English question
     * ("What is the capital of France?") matched unrelated English entries on "what", "is", "the" at
     * BM25. The {@code cjk} analyzer drops English stop words by default already.
     */
    static CharArraySet smartcnStopWords() {
        CharArraySet words = new CharArraySet(SmartChineseAnalyzer.getDefaultStopSet(), true);
        words.addAll(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
        return CharArraySet.unmodifiableSet(words);
    }

    public static Analyzer create(String name) {
        return switch (name == null ? "smartcn" : name.toLowerCase(Locale.ROOT)) {
            case "cjk", "cjk-bigram", "bigram" -> new CJKAnalyzer();
            case "smartcn" -> new SmartChineseAnalyzer(smartcnStopWords());
            default -> throw new IllegalArgumentException("unknown analyzer '" + name + "' (cjk or smartcn)");
        };
    }
}
