package io.sluice.knowledge.embedding;

import java.util.concurrent.Executor;

import dev.langchain4j.model.embedding.onnx.PoolingMode;

/**
 * BGE-small-zh v1.5 (quantized, 512 dimensions) run in process with ONNX Runtime. The model ships
 * inside a Maven jar: nothing is downloaded at run time. Loaded on first use (a few seconds).
 */
public class OnnxBgeEmbedder extends OnnxEmbedder {

    public static final String MODEL_ID = "bge-small-zh-v1.5-q";

    /**
     * @param batchSize texts handed to the model per call
     * @param executor  runs the per-text inference of one batch; keep it small on small machines
     */
    public OnnxBgeEmbedder(int batchSize, Executor executor) {
        this(batchSize, executor, true);
    }

    /** @param memoize false = no process-wide memo (benchmarks: every text pays its inference) */
    public OnnxBgeEmbedder(int batchSize, Executor executor, boolean memoize) {
        // BGE truncates at 512 tokens: 1000 characters is beyond that
        super(batchSize, executor, e -> new SingleThreadOnnxModel("bge-small-zh-v1.5-q.onnx",
            "bge-small-zh-v1.5-q-tokenizer.json", PoolingMode.CLS, 512, e), 512, 1000, memoize);
    }

    @Override
    public String modelId() {
        return MODEL_ID;
    }
}
