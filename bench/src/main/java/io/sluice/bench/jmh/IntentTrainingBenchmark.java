package io.sluice.bench.jmh;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.sluice.api.intent.IntentFeatures;
import io.sluice.semantics.intent.IntentDefinition;
import io.sluice.semantics.intent.IntentTrainer;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Training an intent model on 5,000 examples (13 intents): {@code embedded} = the whole training as the
 * API runs it (every example embedded by both models, no cache, then the out-of-fold search of C,
 * temperature and S floor and the final fit); {@code precomputed} = the learning alone (features
 * looked up). Single shot: one operation is one training.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class IntentTrainingBenchmark {

    @Param({"precomputed", "embedded"})
    String features;

    @Param({"5000"})
    int examples;

    private List<IntentDefinition> taxonomy;
    private IntentFeatures front;
    private Map<String, float[]> precomputed;

    @Setup(Level.Trial)
    public void setUp() {
        taxonomy = IntentBenchData.taxonomyOf(examples);
        front = IntentBenchData.uncachedFeatures();
        if (features.equals("precomputed")) {
            List<String> texts = taxonomy.stream().flatMap(i -> i.examples().stream()).toList();
            List<float[]> x = front.ofAll(texts);
            precomputed = new LinkedHashMap<>();
            for (int i = 0; i < texts.size(); i++) {
                precomputed.put(texts.get(i), x.get(i));
            }
        }
    }

    @Benchmark
    public IntentTrainer.Trained train() {
        IntentTrainer trainer = features.equals("precomputed")
            ? new IntentTrainer(texts -> texts.stream().map(precomputed::get).toList())
            : new IntentTrainer(front::ofAll);
        return trainer.train(taxonomy, front.embedderId(), new IntentTrainer.Settings(0.2, 0.3, 0.4));
    }
}
