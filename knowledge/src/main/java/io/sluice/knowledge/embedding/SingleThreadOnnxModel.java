package io.sluice.knowledge.embedding;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * One of the model jars' ONNX models, run with one intra-op thread that does not spin-wait. ONNX Runtime's
 * default gives a session as many intra-op threads as there are cores, each spinning between operators:
 * on a small machine one short text then burns several cores' worth of CPU, and two texts embedded at once
 * (a batch over the executor, or two requests) fight over the same pool, which is what made the decision's
 * tail long. Parallelism comes from the executor instead: one text per thread.
 */
final class SingleThreadOnnxModel extends AbstractInProcessEmbeddingModel {

    /** One session per model in the process, as the model jars keep theirs (a session is thread-safe). */
    private static final Map<String, OnnxBertBiEncoder> SESSIONS = new ConcurrentHashMap<>();

    private final OnnxBertBiEncoder encoder;
    private final int dimension;

    SingleThreadOnnxModel(String modelResource, String tokenizerResource, PoolingMode pooling, int dimension,
            Executor executor) {
        super(executor);
        this.dimension = dimension;
        this.encoder = SESSIONS.computeIfAbsent(modelResource, m -> load(m, tokenizerResource, pooling));
    }

    private static OnnxBertBiEncoder load(String modelResource, String tokenizerResource, PoolingMode pooling) {
        ClassLoader loader = SingleThreadOnnxModel.class.getClassLoader();
        try (InputStream model = loader.getResourceAsStream(modelResource);
                InputStream tokenizer = loader.getResourceAsStream(tokenizerResource)) {
            if (model == null || tokenizer == null) {
                throw new IllegalStateException("embedding model " + modelResource + " is not on the class path");
            }
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            options.addConfigEntry("session.intra_op.allow_spinning", "0");
            options.addConfigEntry("session.inter_op.allow_spinning", "0");
            // no CPU memory arena: the arena keeps the largest run's intermediate tensors (a 1,000-character answer
            // embedded once) for the life of the process; plain malloc gives them back, and the JVM trims the
            // native heap (run.sh: -XX:TrimNativeHeapInterval)
            options.setCPUArenaAllocator(false);
            options.setMemoryPatternOptimization(false);
            return new OnnxBertBiEncoder(env, env.createSession(model.readAllBytes(), options), tokenizer, pooling);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (OrtException e) {
            throw new IllegalStateException("cannot load embedding model " + modelResource + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected OnnxBertBiEncoder model() {
        return encoder;
    }

    @Override
    protected Integer knownDimension() {
        return dimension;
    }
}
