package io.sluice.bench.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

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
import io.sluice.api.chat.SemanticCache;
import io.sluice.api.masking.PiiMasker;
import io.sluice.api.session.SessionContext;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationProperties;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.embedding.Embedder;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import tools.jackson.databind.json.JsonMapper;

/**
 * {@link RedisSemanticCache#lookup} on real Redis, one caller thread, key space filled with N entries
 * beforehand. Embeddings are precomputed (random 512-dim unit vectors in a map; a query's vector is
 * its target entry's vector plus noise, cosine ≈ 0.99, while unrelated entries sit near 0), so only
 * the lookup is timed, not ONNX.
 * <ul>
 * <li>{@code l1ExactHit}: a stored question asked again — normalize + hash, one Lua round trip
 * (exact index + entry + space version), entry JSON read;</li>
 * <li>{@code l2SemanticHit}: a paraphrase — the same L1 round trip (a miss), then the vector scan of
 * the local mirror of all N entries (dot products, expiry filter), the hit verifier on the match,
 * the answer. The mirror is loaded before measuring; it stays valid as nothing is written.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class SemanticCacheBenchmark {

    private static final int DIMENSION = 512;
    private static final int ASKED = 64;

    /** A key space of {@code entries} stored questions, and prepared contexts asking them. */
    public abstract static class Filled {
        BenchRedis redis;
        RedisSemanticCache cache;
        final List<ChatContext> exact = new ArrayList<>();
        final List<ChatContext> paraphrases = new ArrayList<>();
        int next;

        abstract int entries();

        void fill() {
            redis = new BenchRedis("cache");
            PrecomputedEmbedder embedder = new PrecomputedEmbedder();
            CacheProperties d = CacheProperties.defaults();
            cache = new RedisSemanticCache(redis.client(), embedder, JsonMapper.builder().build(),
                new CacheProperties(true, redis.prefix(), "v1", d.ttl(), Math.max(d.maxEntries(), entries()), d.maxChars(),
                    d.flightLease(), d.flightWait()),
                () -> 1L, new TurnEligibility(new PiiMasker(), 300), new HitVerifier(), new SimpleMeterRegistry());
            ApiClient client = new ApiClient(42, "bench", "sk-sluice-bench", ClientTier.STANDARD);
            SplittableRandom random = new SplittableRandom(8);
            List<float[]> vectors = new ArrayList<>();
            for (int i = 0; i < entries(); i++) {
                String question = "退款多久能到账？单号 " + code(i);
                float[] vector = unit(random, null, 0);
                vectors.add(vector);
                embedder.put(question, vector);
                ChatContext ctx = ctx(client, question);
                ctx.answer(new Answer("退款原路退回，1-3 个工作日到账。", FidelityTier.F4,
                    List.of(new ChatResponse.Source("faq", Integer.toString(i), "退款时效", 1f))));
                cache.offer(ctx);
            }
            int step = Math.max(1, entries() / ASKED);
            for (int i = 0; i < entries() && exact.size() < ASKED; i += step) {
                exact.add(ctx(client, "退款多久能到账？单号 " + code(i)));
                String paraphrase = "请问退款大概多久到账 " + code(i);
                embedder.put(paraphrase, unit(random, vectors.get(i), 0.15));
                paraphrases.add(ctx(client, paraphrase));
            }
            // loads the vector mirror and checks that the questions hit as intended
            expect(exact.get(0), true);
            expect(paraphrases.get(0), false);
        }

        private void expect(ChatContext ctx, boolean exactHit) {
            Optional<SemanticCache.Hit> hit = cache.lookup(ctx);
            if (hit.isEmpty() || (hit.get().similarity() == 1.0) != exactHit) {
                throw new IllegalStateException("expected an " + (exactHit ? "L1" : "L2") + " hit for '" + ctx.message()
                    + "', got " + hit);
            }
        }

        ChatContext nextOf(List<ChatContext> asked) {
            next = (next + 1) % asked.size();
            return asked.get(next);
        }

        void close() {
            redis.close();
        }
    }

    @State(Scope.Benchmark)
    public static class Small extends Filled {
        @Override
        int entries() {
            return 100;
        }

        @Setup(Level.Trial)
        public void setUp() {
            fill();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
        }
    }

    @State(Scope.Benchmark)
    public static class Sized extends Filled {
        @Param({"100", "1000", "5000"})
        int entries;

        @Override
        int entries() {
            return entries;
        }

        @Setup(Level.Trial)
        public void setUp() {
            fill();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
        }
    }

    @Benchmark
    public SemanticCache.Hit l1ExactHit(Small space) {
        return hit(space.cache.lookup(space.nextOf(space.exact)));
    }

    @Benchmark
    public SemanticCache.Hit l2SemanticHit(Sized space) {
        return hit(space.cache.lookup(space.nextOf(space.paraphrases)));
    }

    private static SemanticCache.Hit hit(Optional<SemanticCache.Hit> hit) {
        // a miss would time a different path (single-flight): stop rather than report it
        return hit.orElseThrow(() -> new IllegalStateException("cache miss"));
    }

    static ChatContext ctx(ApiClient client, String message) {
        ChatContext ctx = new ChatContext(client, new ChatRequest("u1", null, message));
        ctx.session(SessionContext.fresh());
        ctx.level(DegradationLevel.L0, DegradationProperties.defaults().levels().get(DegradationLevel.L0));
        return ctx;
    }

    /** Letters only: digits would be numbers to the hit verifier. */
    private static String code(int i) {
        return "z" + (char) ('a' + i / 676 % 26) + (char) ('a' + i / 26 % 26) + (char) ('a' + i % 26);
    }

    /** A random unit vector, or {@code base} plus that much random noise, normalized. */
    private static float[] unit(SplittableRandom random, float[] base, double noise) {
        float[] v = new float[DIMENSION];
        double norm = 0;
        for (int i = 0; i < DIMENSION; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        double scale = base == null ? 1 / Math.sqrt(norm) : noise / Math.sqrt(norm);
        norm = 0;
        for (int i = 0; i < DIMENSION; i++) {
            v[i] = (float) (v[i] * scale + (base == null ? 0 : base[i]));
            norm += v[i] * v[i];
        }
        double inverse = 1 / Math.sqrt(norm);
        for (int i = 0; i < DIMENSION; i++) {
            v[i] = (float) (v[i] * inverse);
        }
        return v;
    }

    /** Vectors computed beforehand: a lookup costs a map read, never a model run. */
    static final class PrecomputedEmbedder implements Embedder {
        private final Map<String, float[]> vectors = new ConcurrentHashMap<>();

        void put(String text, float[] vector) {
            vectors.put(text, vector);
        }

        @Override
        public int dimension() {
            return DIMENSION;
        }

        @Override
        public String modelId() {
            return "precomputed-512";
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            return texts.stream().map(text -> {
                float[] vector = vectors.get(text);
                if (vector == null) {
                    throw new IllegalStateException("no precomputed vector for '" + text + "'");
                }
                return vector;
            }).toList();
        }
    }
}
