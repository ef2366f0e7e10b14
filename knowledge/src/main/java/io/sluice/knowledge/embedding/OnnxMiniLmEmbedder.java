package io.sluice.knowledge.embedding;

import java.util.concurrent.Executor;

import dev.langchain4j.model.embedding.onnx.PoolingMode;

/**
 * all-MiniLM-L6-v2 (quantized, 384 dimensions) in process: the English model. BGE-small-zh is a
 * Chinese model and ranks English paraphrases poorly; Latin-script queries are matched against
 * Latin-script texts with this one (Lucene only; pgvector keeps the 512-dim BGE vectors). Shipped in
 * a Maven jar, loaded on first use.
 */
public class OnnxMiniLmEmbedder extends OnnxEmbedder {

    public static final String MODEL_ID = "all-minilm-l6-v2-q";

    public OnnxMiniLmEmbedder(int batchSize, Executor executor) {
        this(batchSize, executor, true);
    }

    /** @param memoize false = no process-wide memo (benchmarks: every text pays its inference) */
    public OnnxMiniLmEmbedder(int batchSize, Executor executor, boolean memoize) {
        // the model truncates at 256 word pieces: 1000 characters is beyond that
        super(batchSize, executor, e -> new SingleThreadOnnxModel("all-minilm-l6-v2-q.onnx",
            "all-minilm-l6-v2-q-tokenizer.json", PoolingMode.MEAN, 384, e), 384, 1000, memoize);
    }

    @Override
    public String modelId() {
        return MODEL_ID;
    }
}
