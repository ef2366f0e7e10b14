package io.sluice.knowledge.embedding;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;

/**
 * An in-process ONNX model from a langchain4j Maven jar (nothing downloaded at run time): loaded on
 * first use, fed in batches, vectors normalised. Subclasses name the model and its limits.
 */
public abstract class OnnxEmbedder implements Embedder {

    private final int batchSize;
    private final Executor executor;
    private final Function<Executor, EmbeddingModel> loader;
    private final int dimension;
    private final int maxChars;
    private volatile EmbeddingModel model;
    /** Null = every text goes to the model (benchmarks measure a message never seen before). */
    private final EmbeddingMemo memo;

    /**
     * @param batchSize texts handed to the model per call
     * @param executor  runs the per-text inference of one batch (null = the model's own); keep it small
     * @param loader    creates the model with that executor (or its default when null)
     * @param dimension the model's vector size
     * @param maxChars  text beyond this is cut: the model truncates anyway, longer text only costs time
     */
    protected OnnxEmbedder(int batchSize, Executor executor, Function<Executor, EmbeddingModel> loader, int dimension,
            int maxChars) {
        this(batchSize, executor, loader, dimension, maxChars, true);
    }

    /** @param memoize false = bypass the process-wide memo: every text pays its inference */
    protected OnnxEmbedder(int batchSize, Executor executor, Function<Executor, EmbeddingModel> loader, int dimension,
            int maxChars, boolean memoize) {
        this.memo = memoize ? EmbeddingMemo.SHARED : null;
        this.batchSize = Math.max(1, batchSize);
        this.executor = executor;
        this.loader = loader;
        this.dimension = dimension;
        this.maxChars = maxChars;
    }

    private EmbeddingModel model() {
        EmbeddingModel m = model;
        if (m == null) {
            synchronized (this) {
                m = model;
                if (m == null) {
                    m = loader.apply(executor);
                    model = m;
                }
            }
        }
        return m;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        float[][] out = new float[texts.size()][];
        // texts not in the memo, each once, with every position it fills
        java.util.LinkedHashMap<String, List<Integer>> missing = new java.util.LinkedHashMap<>();
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            String t = text == null || text.isBlank() ? " " : text;
            t = t.length() > maxChars ? t.substring(0, maxChars) : t;
            out[i] = memo == null ? null : memo.get(EmbeddingMemo.key(modelId(), t));
            if (out[i] == null) {
                missing.computeIfAbsent(t, k -> new ArrayList<>()).add(i);
            }
        }
        List<String> unique = new ArrayList<>(missing.keySet());
        for (int from = 0; from < unique.size(); from += batchSize) {
            List<String> batchTexts = unique.subList(from, Math.min(unique.size(), from + batchSize));
            List<TextSegment> batch = batchTexts.stream().map(TextSegment::from).toList();
            List<Embedding> embedded = model().embedAll(batch).content();
            for (int k = 0; k < batchTexts.size(); k++) {
                float[] v = Vectors.normalize(embedded.get(k).vector());
                if (memo != null) {
                    memo.put(EmbeddingMemo.key(modelId(), batchTexts.get(k)), v);
                }
                for (int position : missing.get(batchTexts.get(k))) {
                    out[position] = v.clone();
                }
            }
        }
        return java.util.Arrays.asList(out);
    }
}
