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

    /**
     * @param batchSize texts handed to the model per call
     * @param executor  runs the per-text inference of one batch (null = the model's own); keep it small
     * @param loader    creates the model with that executor (or its default when null)
     * @param dimension the model's vector size
     * @param maxChars  text beyond this is cut: the model truncates anyway, longer text only costs time
     */
    protected OnnxEmbedder(int batchSize, Executor executor, Function<Executor, EmbeddingModel> loader, int dimension,
            int maxChars) {
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
        List<float[]> out = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += batchSize) {
            List<TextSegment> batch = new ArrayList<>();
            for (String text : texts.subList(from, Math.min(texts.size(), from + batchSize))) {
                String t = text == null || text.isBlank() ? " " : text;
                batch.add(TextSegment.from(t.length() > maxChars ? t.substring(0, maxChars) : t));
            }
            for (Embedding e : model().embedAll(batch).content()) {
                out.add(Vectors.normalize(e.vector()));
            }
        }
        return out;
    }
}
