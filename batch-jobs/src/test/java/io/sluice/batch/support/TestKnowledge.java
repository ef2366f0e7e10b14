package io.sluice.batch.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import javax.sql.DataSource;

import io.sluice.knowledge.embedding.CachingEmbedder;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.OnnxBgeEmbedder;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqSnapshotService;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The knowledge parts the batch jobs use, as the application wires them but per test instance: the real
 * ONNX embedder (one per JVM, loaded on first use), the FAQ table, a FAQ snapshot service with a
 * directory of its own (each instance has its own disk), and a Redisson client on the test Redis.
 */
@Configuration(proxyBeanMethods = false)
public class TestKnowledge {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "test-embedder");
        t.setDaemon(true);
        return t;
    });
    private static final Embedder EMBEDDER = new io.sluice.knowledge.embedding.NormalizingEmbedder(new CachingEmbedder(new OnnxBgeEmbedder(16, POOL), 2048));

    public static Embedder embedder() {
        return EMBEDDER;
    }

    @Bean
    Embedder testEmbedder() {
        return EMBEDDER;
    }

    @Bean
    FaqRepository testFaqRepository(DataSource dataSource) {
        return new FaqRepository(dataSource);
    }

    @Bean
    FaqSnapshotService testFaqSnapshotService(FaqRepository faq) {
        try {
            return new FaqSnapshotService(Files.createTempDirectory("batch-faq-snap"), EMBEDDER, () -> faq, 0.9);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Bean(destroyMethod = "shutdown")
    RedissonClient testRedisson() {
        Config config = new Config();
        config.useSingleServer().setAddress(redisAddress()).setDatabase(redisDatabase())
            .setConnectionMinimumIdleSize(1).setConnectionPoolSize(4)
            .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(2);
        return Redisson.create(config);
    }

    private static String redisAddress() {
        java.net.URI uri = java.net.URI.create(TestServices.redisUrl());
        return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
    }

    private static int redisDatabase() {
        String path = java.net.URI.create(TestServices.redisUrl()).getPath();
        return path == null || path.length() <= 1 ? 0 : Integer.parseInt(path.substring(1));
    }
}
