package io.sluice.bench.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.sluice.api.cache.HitVerifier;
import io.sluice.api.cache.L2Matcher;
import io.sluice.semantics.pairs.PairFeatures;
import io.sluice.semantics.pairs.PairModel;
import io.sluice.semantics.pairs.PairVerifier;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * What cache-hit verification adds to an L2 lookup (issue 13: < 0.5 ms p99), sampled per call:
 * {@link L2Matcher#match} over 5 candidates that all pass the cosine gate (the worst case: every one is
 * verified), for mixed questions (Simplified, Traditional, English). The stored questions' signals are
 * read once, as the cache's mirror does; each call reads the asked question's signals (normalisation
 * with Traditional → Simplified, numbers, negation, direction, concepts) and decides every candidate.
 * {@code cosineOnly} is the same scan with a gate nobody passes: the difference is the verification.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class CacheVerificationBenchmark {

    private static final int DIMENSION = 512;
    private static final String[][] QUESTIONS = {
        {"信用卡怎么提高额度", "如何提升信用卡额度", "信用卡额度能调高吗", "信用卡年费怎么收", "借记卡怎么提高额度", "信用卡额度怎么查"},
        {"設定鬧鐘五點半", "设定闹钟五点半", "设定闹钟六点半", "五点半叫我起床", "设一个五点的闹钟", "闹钟怎么关"},
        {"上海到郑州的火车票多少钱", "从上海去郑州的火车多少钱", "郑州到上海的火车票多少钱", "上海到郑州的高铁几点", "上海到北京的火车票", "火车票怎么退"},
        {"无法登录网上银行怎么办", "网银登录不了怎么办", "网上银行登不上去了", "网银可以登录吗", "网银密码忘了", "网银怎么开通"},
        {"How do I raise my credit limit?", "Can I increase my credit card limit?", "I want a higher credit limit",
            "How do I lower my credit limit?", "What is my credit limit?", "Why was my limit reduced?"},
        {"Train from London to Paris tomorrow", "Trains from London to Paris", "Train from Paris to London",
            "How long is the London to Paris train?", "Cheap trains to Paris", "Cancel my train ticket"},
    };

    /** Candidates with vectors close to the asked one (all above every gate) and precomputed signals. */
    @State(Scope.Benchmark)
    public static class Lookups {
        final List<String> asked = new ArrayList<>();
        final List<float[]> askedVectors = new ArrayList<>();
        final List<List<L2Matcher.Candidate<String>>> candidates = new ArrayList<>();
        L2Matcher builtIn;
        L2Matcher model;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            SplittableRandom random = new SplittableRandom(13);
            for (String[] group : QUESTIONS) {
                float[] base = unit(random, null, 0);
                List<L2Matcher.Candidate<String>> stored = new ArrayList<>();
                for (int i = 1; i < group.length; i++) {
                    stored.add(new L2Matcher.Candidate<>(group[i], unit(random, base, 0.05), group[i]));
                }
                asked.add(group[0]);
                askedVectors.add(unit(random, base, 0.05));
                candidates.add(stored);
            }
            builtIn = new L2Matcher(new HitVerifier(PairVerifier.fixed(PairModel.BUILT_IN), 5));
            model = new L2Matcher(new HitVerifier(PairVerifier.fixed(trainedLike()), 5));
        }

        int advance() {
            next = (next + 1) % asked.size();
            return next;
        }
    }

    @Benchmark
    public Object cosineOnly(Lookups s) {
        int i = s.advance();
        return s.builtIn.match(s.asked.get(i), s.askedVectors.get(i), "L0", 1.01, null, s.candidates.get(i));
    }

    @Benchmark
    public Object builtInVerification(Lookups s) {
        int i = s.advance();
        return s.builtIn.match(s.asked.get(i), s.askedVectors.get(i), "L3", 0.0, null, s.candidates.get(i));
    }

    @Benchmark
    public Object modelVerification(Lookups s) {
        int i = s.advance();
        return s.model.match(s.asked.get(i), s.askedVectors.get(i), "L3", 0.0, null, s.candidates.get(i));
    }

    /** Weights of the size a trained model has (the cost does not depend on their values); floor 0 scores all. */
    static PairModel trainedLike() {
        double[] w = new double[PairFeatures.NAMES.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = (i % 3 - 1) * 1.5;
        }
        return new PairModel(PairFeatures.NAMES, w, -0.2, 0.01, Map.of("L0", 0.77, "L1", 0.76, "L2", 0.58, "L3", 0.0));
    }

    static float[] unit(SplittableRandom random, float[] near, double noise) {
        float[] v = new float[DIMENSION];
        double norm = 0;
        for (int i = 0; i < DIMENSION; i++) {
            double x = near == null ? random.nextGaussian() : near[i] + noise * random.nextGaussian() / Math.sqrt(DIMENSION);
            v[i] = (float) x;
            norm += x * x;
        }
        float n = (float) Math.sqrt(norm);
        for (int i = 0; i < DIMENSION; i++) {
            v[i] /= n;
        }
        return v;
    }
}
