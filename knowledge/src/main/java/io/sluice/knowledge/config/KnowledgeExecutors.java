package io.sluice.knowledge.config;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The knowledge module's thread pools, kept inside one bean on purpose: exposing them as
 * {@code Executor} beans would switch off Spring Boot's default {@code applicationTaskExecutor}.
 */
public final class KnowledgeExecutors implements AutoCloseable {

    private final ExecutorService embedding;
    private final ExecutorService tiers;

    KnowledgeExecutors(int embeddingThreads, int tierThreads) {
        embedding = Executors.newFixedThreadPool(Math.max(1, embeddingThreads), daemon("knowledge-embed"));
        int t = Math.max(2, tierThreads);
        tiers = new ThreadPoolExecutor(t, t, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(t * 8),
            daemon("knowledge-tier"));
    }

    /** Runs ONNX inference for one batch. */
    public ExecutorService embedding() {
        return embedding;
    }

    /** Runs the chain's non-inline tiers (bounded: a saturated pool makes a tier hand over). */
    public ExecutorService tiers() {
        return tiers;
    }

    @Override
    public void close() {
        embedding.shutdownNow();
        tiers.shutdownNow();
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread th = new Thread(r, name + "-" + n.incrementAndGet());
            th.setDaemon(true);
            return th;
        };
    }
}
