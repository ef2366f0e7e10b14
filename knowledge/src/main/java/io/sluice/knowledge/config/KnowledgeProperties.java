package io.sluice.knowledge.config;

import java.nio.file.Path;
import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import io.sluice.knowledge.embedding.EnglishModels;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Knowledge settings ({@code sluice.knowledge.*}).
 *
 * @param indexDir    where the Lucene index lives on local disk
 * @param snapshotDir where FAQ snapshots live (default: {@code faq-snapshots} next to the index dir)
 * @param analyzer    BM25 analyzer: {@code smartcn} (default, measured better) or {@code cjk} (bigrams)
 */
@Validated
@ConfigurationProperties("sluice.knowledge")
public record KnowledgeProperties(@NotNull Path indexDir, Path snapshotDir, @DefaultValue("smartcn") String analyzer,
        @DefaultValue Embedding embedding, @DefaultValue Ingest ingest, @DefaultValue Chain chain,
        @DefaultValue Sample sample, @DefaultValue Faq faq) {

    public Path effectiveSnapshotDir() {
        return snapshotDir != null ? snapshotDir : indexDir.toAbsolutePath().resolveSibling("faq-snapshots");
    }

    /**
     * @param provider  {@code onnx} (in-process BGE-small-zh, default) or {@code openai} (OpenAI-compatible endpoint)
     * @param dimension must match the model; 512 for BGE-small-zh and the pgvector column
     * @param englishModel second in-process model for Latin-script texts and queries (Lucene KNN, FAQ snapshot,
     *                     F1 ranking, intent features): {@code bge-small-en-v1.5-q} (default),
     *                     {@code all-minilm-l6-v2-q} or {@code none}; anything else is refused at start
     */
    public record Embedding(@DefaultValue("onnx") String provider, String baseUrl, String model, String apiKey,
            @DefaultValue("512") int dimension, @DefaultValue("16") int batchSize,
            @DefaultValue("1024") int queryCacheSize, @DefaultValue("2") int threads,
            @DefaultValue(EnglishModels.DEFAULT) String englishModel) {

        public Embedding {
            if (!EnglishModels.disabled(englishModel)) {
                englishModel = EnglishModels.canonical(englishModel);   // an unknown id: a clear start-up error
            }
        }

        public boolean englishModelEnabled() {
            return !EnglishModels.disabled(englishModel);
        }
    }

    /**
     * @param maxDecompressedSize total decoded size of a PDF's content streams (decompression bombs)
     * @param maxTextChars        text extracted from one document
     * @param maxParseTime        time parsing one document may take
     */
    public record Ingest(@DefaultValue("5MB") DataSize maxDocumentSize, @DefaultValue("400") int chunkChars,
            @DefaultValue("80") int overlapChars, @DefaultValue("64MB") DataSize maxDecompressedSize,
            @DefaultValue("2000000") int maxTextChars, @DefaultValue("20s") java.time.Duration maxParseTime) {

        public io.sluice.knowledge.ingest.ParseLimits parseLimits() {
            return new io.sluice.knowledge.ingest.ParseLimits(maxDecompressedSize.toBytes(), maxTextChars, maxParseTime);
        }
    }

    /** Level-0 defaults of the chain; callers pass their own {@code RetrievalPlan} per request. */
    public record Chain(@DefaultValue("5") int topK, @DefaultValue("0.5") double minVectorScore,
            @DefaultValue("3.0") double minBm25Score, @DefaultValue("0.5") double minFaqScore,
            @DefaultValue("200ms") Duration vectorTimeout, @DefaultValue("100ms") Duration bm25Timeout,
            @DefaultValue("50ms") Duration faqTimeout, @DefaultValue("5") int breakerFailures,
            @DefaultValue("30s") Duration breakerOpenFor, @DefaultValue("true") boolean luceneKnnFallback,
            @DefaultValue("40") int efSearch, @DefaultValue("8") int threads,
            Double minEnglishVectorScore) {

        public Chain {
            if (minEnglishVectorScore != null && !(minEnglishVectorScore >= -1 && minEnglishVectorScore <= 1)) {
                throw new IllegalArgumentException("sluice.knowledge.chain.min-english-vector-score is a cosine in [-1, 1]");
            }
        }

        /** The English model's bar: the configured one, else the model's own default (0.65 BGE-small-en, 0.3 MiniLM). */
        public double minEnglishVectorScore(String englishModel) {
            return minEnglishVectorScore != null ? minEnglishVectorScore : EnglishModels.defaultMinScore(englishModel);
        }
    }

    public record Sample(@DefaultValue("true") boolean loadOnFirstStart) {
    }

    /**
     * @param publishOnChange rebuild and publish the snapshot after each FAQ change from the API
     * @param minSelfHitRate  validation: share of entries whose own question must find them first
     * @param answerVectorWait how long an F1 question waits for answer vectors that another question or the
     *                        background warm-up is computing; past it the question is ranked without the
     *                        answer term (answers are embedded once per snapshot version, in the background)
     */
    public record Faq(@DefaultValue("true") boolean publishOnChange, @DefaultValue("0.9") double minSelfHitRate,
            @DefaultValue("2s") java.time.Duration answerVectorWait) {

        public Faq {
            if (answerVectorWait == null || answerVectorWait.isNegative()) {
                throw new IllegalArgumentException("sluice.knowledge.faq.answer-vector-wait must be zero or more, was "
                    + answerVectorWait);
            }
        }
    }
}
