package io.sluice.bench.cache;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.auth.ApiClient;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.cache.CacheProperties;
import io.sluice.api.cache.HitVerifier;
import io.sluice.api.cache.RedisSemanticCache;
import io.sluice.api.cache.TurnEligibility;
import io.sluice.api.chat.Answer;
import io.sluice.api.chat.ChatContext;
import io.sluice.api.chat.ChatRequest;
import io.sluice.api.chat.ChatResponse;
import io.sluice.api.masking.PiiMasker;
import io.sluice.api.session.SessionContext;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationProperties;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.embedding.CachingEmbedder;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.OnnxBgeEmbedder;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import tools.jackson.databind.json.JsonMapper;

/**
 * The semantic cache's hit path against real Redis and the real ONNX embedder: lookup latency
 * (p50/p99, sequential) for L1 exact hits and L2 verified semantic hits, and requests/s of L1 hits
 * on 2 threads. The questions are the {@code same} pairs of {@code knowledge/sample/cache-pairs.tsv}
 * (first question stored, second asked). Needs {@code SLUICE_REDIS_URL}.
 */
public final class CacheHitBench {

    private CacheHitBench() {
    }

    public static void main(String[] args) throws Exception {
        String prefix = "bench:cache:" + UUID.randomUUID() + ":";
        Config config = new Config();
        config.useSingleServer().setAddress(Objects.requireNonNull(System.getenv("SLUICE_REDIS_URL"), "SLUICE_REDIS_URL"));
        RedissonClient redisson = Redisson.create(config);
        Embedder embedder = new io.sluice.knowledge.embedding.NormalizingEmbedder(new CachingEmbedder(new OnnxBgeEmbedder(16, Executors.newFixedThreadPool(2)), 4096));
        CacheProperties d = CacheProperties.defaults();
        RedisSemanticCache cache = new RedisSemanticCache(redisson, embedder, JsonMapper.builder().build(),
            new CacheProperties(true, prefix, "v1", d.ttl(), d.maxEntries(), d.maxChars(), d.flightLease(), d.flightWait()),
            () -> 1L, new TurnEligibility(new PiiMasker(), 300), new HitVerifier(), new SimpleMeterRegistry());
        ApiClient client = new ApiClient(42, "bench", "sk-sluice-bench", ClientTier.STANDARD);
        try {
            List<String[]> pairs = samePairs();
            for (String[] p : pairs) {
                ChatContext ctx = ctx(client, p[0]);
                cache.lookup(ctx);
                ctx.answer(new Answer("answer to " + p[0], FidelityTier.F4, List.of(new ChatResponse.Source("faq", "1", "q", 1f))));
                cache.offer(ctx);
            }
            List<String> stored = pairs.stream().map(p -> p[0]).distinct().toList();
            // L2 candidates: asked questions the cache serves semantically (not exact repeats)
            List<String> semantic = new ArrayList<>();
            for (String[] p : pairs) {
                var hit = cache.lookup(ctx(client, p[1]));
                if (hit.isPresent() && hit.get().similarity() < 1.0) {
                    semantic.add(p[1]);
                }
            }
            System.out.printf("stored %d questions; %d paraphrases served semantically at L0%n", stored.size(), semantic.size());

            latency("L1 exact hit", cache, client, stored, 3_000, 20_000);
            if (!semantic.isEmpty()) {
                latency("L2 semantic hit (query embedding cached)", cache, client, semantic, 1_000, 10_000);
            }
            long t0 = System.nanoTime();
            int cold = 50;
            for (int i = 0; i < cold; i++) {
                embedder.embedAll(List.of("冷启动问题 " + i + " 退款多久到账"));
            }
            System.out.printf("ONNX query embedding (cold, a new text): %.1f ms each%n", (System.nanoTime() - t0) / 1e6 / cold);
            throughput(cache, client, stored, 2, Duration.ofSeconds(5));
        } finally {
            redisson.getKeys().deleteByPattern(prefix + "*");
            redisson.shutdown();
            System.exit(0);
        }
    }

    static ChatContext ctx(ApiClient client, String message) {
        ChatContext ctx = new ChatContext(client, new ChatRequest("u1", null, message));
        ctx.session(SessionContext.fresh());
        ctx.level(DegradationLevel.L0, DegradationProperties.defaults().levels().get(DegradationLevel.L0));
        return ctx;
    }

    static void latency(String name, RedisSemanticCache cache, ApiClient client, List<String> questions, int warm, int n) {
        for (int i = 0; i < warm; i++) {
            cache.lookup(ctx(client, questions.get(i % questions.size())));
        }
        long[] ns = new long[n];
        int hits = 0;
        for (int i = 0; i < n; i++) {
            ChatContext ctx = ctx(client, questions.get(i % questions.size()));
            long t = System.nanoTime();
            hits += cache.lookup(ctx).isPresent() ? 1 : 0;
            ns[i] = System.nanoTime() - t;
        }
        Arrays.sort(ns);
        System.out.printf("%s: %d lookups, %d hits, p50 %.3f ms, p90 %.3f ms, p99 %.3f ms%n", name, n, hits,
            ns[n / 2] / 1e6, ns[n * 9 / 10] / 1e6, ns[n * 99 / 100] / 1e6);
    }

    static void throughput(RedisSemanticCache cache, ApiClient client, List<String> questions, int threads,
            Duration duration) throws InterruptedException {
        LongAdder done = new LongAdder();
        LongAdder hits = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int offset = t;
            Thread w = new Thread(() -> {
                int i = offset;
                while (!stop.get()) {
                    if (cache.lookup(ctx(client, questions.get(i++ % questions.size()))).isPresent()) {
                        hits.increment();
                    }
                    done.increment();
                }
            });
            workers.add(w);
            w.start();
        }
        Thread.sleep(duration.toMillis());
        stop.set(true);
        for (Thread w : workers) {
            w.join();
        }
        System.out.printf("L1 hits on %d threads for %s: %.0f req/s (%d lookups, %d hits)%n", threads, duration,
            done.sum() / (duration.toMillis() / 1000.0), done.sum(), hits.sum());
    }

    static List<String[]> samePairs() throws Exception {
        var in = Objects.requireNonNull(CacheHitBench.class.getResourceAsStream("/sluice/sample/cache-pairs.tsv"));
        List<String[]> out = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                String[] f = line.split("\t");
                if (f.length == 5 && "same".equals(f[0])) {
                    out.add(new String[] {f[3], f[4]});
                }
            }
        }
        return out;
    }
}
