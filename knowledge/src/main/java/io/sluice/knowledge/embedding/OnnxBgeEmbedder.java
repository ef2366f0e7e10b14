package io.sluice.knowledge.embedding;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.bgesmallzhv15q.BgeSmallZhV15QuantizedEmbeddingModel;

/**
 * BGE-small-zh v1.5 (quantized, 512 dimensions) run in process with ONNX Runtime. The model ships
 * inside a Maven jar: nothing is downloaded at run time. Loaded on first use (a few seconds).
 */
public class OnnxBgeEmbedder implements Embedder {

    public static final String MODEL_ID = "bge-small-zh-v1.5-q";
    /** BGE truncates at 512 tokens; longer text only costs time. */
    private static final int MAX_CHARS = 1000;

    private final int batchSize;
    private final Executor executor;
    private volatile BgeSmallZhV15QuantizedEmbeddingModel model;

    /**
     * @param batchSize texts handed to the model per call
     * @param executor  runs the per-text inference of one batch; keep it small on small machines
     */
    public OnnxBgeEmbedder(int batchSize, Executor executor) {
        this.batchSize = Math.max(1, batchSize);
        this.executor = executor;
    }

    private BgeSmallZhV15QuantizedEmbeddingModel model() {
        BgeSmallZhV15QuantizedEmbeddingModel m = model;
        if (m == null) {
            synchronized (this) {
                m = model;
                if (m == null) {
                    m = executor == null ? new BgeSmallZhV15QuantizedEmbeddingModel()
                        : new BgeSmallZhV15QuantizedEmbeddingModel(executor);
                    model = m;
                }
            }
        }
        return m;
    }

    @Override
    public int dimension() {
        return 512;
    }

    @Override
    public String modelId() {
        return MODEL_ID;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += batchSize) {
            List<TextSegment> batch = new ArrayList<>();
            for (String text : texts.subList(from, Math.min(texts.size(), from + batchSize))) {
                String t = text == null || text.isBlank() ? " " : text;
                batch.add(TextSegment.from(t.length() > MAX_CHARS ? t.substring(0, MAX_CHARS) : t));
            }
            for (Embedding e : model().embedAll(batch).content()) {
                out.add(Vectors.normalize(e.vector()));
            }
        }
        return out;
    }
}
