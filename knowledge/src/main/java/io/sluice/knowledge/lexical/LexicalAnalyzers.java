package io.sluice.knowledge.lexical;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Locale;

import io.sluice.knowledge.text.TextNormalizer;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.AnalyzerWrapper;
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

    /**
     * The analyzer behind the platform's one normalisation ({@link TextNormalizer}: case, width, Traditional →
     * Simplified), on the indexed text and the query alike: smartcn's dictionary is Simplified, so Traditional
     * text was segmented into single characters, and a Simplified question never matched a Traditional entry
     * (掛失 ≠ 挂失). An index written before this holds raw tokens: rebuild it (knowledge-reindex job).
     */
    public static Analyzer create(String name) {
        Analyzer base = switch (name == null ? "smartcn" : name.toLowerCase(Locale.ROOT)) {
            case "cjk", "cjk-bigram", "bigram" -> new CJKAnalyzer();
            case "smartcn" -> new SmartChineseAnalyzer(smartcnStopWords());
            default -> throw new IllegalArgumentException("unknown analyzer '" + name + "' (cjk or smartcn)");
        };
        return new Normalizing(base);
    }

    /** Normalises each field value before the wrapped analyzer tokenises it. */
    static final class Normalizing extends AnalyzerWrapper {
        private final Analyzer delegate;

        Normalizing(Analyzer delegate) {
            super(delegate.getReuseStrategy());
            this.delegate = delegate;
        }

        @Override
        protected Analyzer getWrappedAnalyzer(String fieldName) {
            return delegate;
        }

        @Override
        protected Reader wrapReader(String fieldName, Reader reader) {
            try {
                StringBuilder text = new StringBuilder();
                char[] buffer = new char[2048];
                for (int n; (n = reader.read(buffer)) > 0; ) {
                    text.append(buffer, 0, n);
                }
                return new StringReader(TextNormalizer.normalize(text.toString()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            delegate.close();
            super.close();
        }
    }
}
