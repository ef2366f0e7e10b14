package io.sluice.knowledge.embedding;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;

/**
 * all-MiniLM-L6-v2 (quantized, 384 dimensions) in process: the English model. BGE-small-zh is a
 * Chinese model and ranks English paraphrases poorly; Latin-script queries are matched against
 * Latin-script texts with this one (Lucene only; pgvector keeps the 512-dim BGE vectors). Shipped in
 * a Maven jar, loaded on first use.
 */
public class OnnxMiniLmEmbedder implements Embedder {

    public static final String MODEL_ID = "all-minilm-l6-v2-q";
    /** The model truncates at 256 word pieces. */
    private static final int MAX_CHARS = 1000;

    private final int batchSize;
    private final Executor executor;
    private volatile AllMiniLmL6V2QuantizedEmbeddingModel model;

    public OnnxMiniLmEmbedder(int batchSize, Executor executor) {
        this.batchSize = Math.max(1, batchSize);
        this.executor = executor;
    }

    private AllMiniLmL6V2QuantizedEmbeddingModel model() {
        AllMiniLmL6V2QuantizedEmbeddingModel m = model;
        if (m == null) {
            synchronized (this) {
                m = model;
                if (m == null) {
                    m = executor == null ? new AllMiniLmL6V2QuantizedEmbeddingModel()
                        : new AllMiniLmL6V2QuantizedEmbeddingModel(executor);
                    model = m;
                }
            }
        }
        return m;
    }

    @Override
    public int dimension() {
        return 384;
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
