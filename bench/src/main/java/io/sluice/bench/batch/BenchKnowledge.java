package io.sluice.bench.batch;

import java.nio.file.Files;
import java.util.concurrent.Executors;

import javax.sql.DataSource;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.OnnxBgeEmbedder;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqSnapshotService;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The knowledge parts the batch module needs (the ONNX model loads only if used), for benches without the app. */
@Configuration(proxyBeanMethods = false)
public class BenchKnowledge {

    @Bean
    Embedder benchEmbedder() {
        return new OnnxBgeEmbedder(16, Executors.newFixedThreadPool(1, r -> {
            Thread t = new Thread(r, "bench-embed");
            t.setDaemon(true);
            return t;
        }));
    }

    @Bean
    FaqRepository benchFaqRepository(DataSource dataSource) {
        return new FaqRepository(dataSource);
    }

    @Bean
    FaqSnapshotService benchFaqSnapshotService(Embedder embedder, FaqRepository faq) throws Exception {
        return new FaqSnapshotService(Files.createTempDirectory("bench-faq"), embedder, () -> faq, 0.9);
    }
}
