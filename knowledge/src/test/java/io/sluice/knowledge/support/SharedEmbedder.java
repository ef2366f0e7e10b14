package io.sluice.knowledge.support;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.sluice.knowledge.embedding.CachingEmbedder;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.NormalizingEmbedder;
import io.sluice.knowledge.embedding.OnnxBgeEmbedder;
import io.sluice.knowledge.embedding.EnglishModels;

/** One ONNX model for all tests in the JVM (it takes seconds to load), behind the same front as production. */
public final class SharedEmbedder {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "test-embedder");
        t.setDaemon(true);
        return t;
    });
    private static final Embedder INSTANCE = new NormalizingEmbedder(new CachingEmbedder(new OnnxBgeEmbedder(16, POOL), 2048));
    /** The English model: the shipped default, or {@code -Dsluice.test.english-model=<id>} (evaluations). */
    public static final String ENGLISH_MODEL = EnglishModels.canonical(System.getProperty("sluice.test.english-model",
        EnglishModels.DEFAULT));
    private static final Embedder ENGLISH = new NormalizingEmbedder(new CachingEmbedder(
        EnglishModels.create(ENGLISH_MODEL, 16, POOL, true), 2048));

    private SharedEmbedder() {
    }

    public static Embedder get() {
        return INSTANCE;
    }

    /** The English model for Latin-script texts (Lucene KNN, FAQ snapshot, F1 ranking). */
    public static Embedder english() {
        return ENGLISH;
    }
}
