package io.sluice.bench.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.intent.IntentFeatures;
import io.sluice.api.intent.IntentMetrics;
import io.sluice.api.intent.IntentPath;
import io.sluice.api.intent.IntentResult;
import io.sluice.api.intent.OnlineIntent;
import io.sluice.api.intent.RuleIntentClassifier;
import io.sluice.semantics.intent.IntentModel;
import io.sluice.semantics.intent.IntentTrainer;

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
 * One intent decision as the chat makes it with a trained model ({@link OnlineIntent#classify}):
 * normalise, embed with BGE (and MiniLM for Latin-script messages) without the query cache, rule
 * scores, the model, the rule override. Sample time, so the report has the p99. Messages rotate over
 * the 332 banking held-out messages (Chinese and English).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
@State(Scope.Benchmark)
public class IntentDecisionBenchmark {

    private OnlineIntent online;
    private List<String> messages;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        IntentFeatures features = IntentBenchData.uncachedFeatures();
        IntentModel model = new IntentTrainer(features::ofAll).train(IntentBenchData.taxonomy(), features.embedderId(),
            new IntentTrainer.Settings(0.2, 0.3, 0.4)).model();
        online = new OnlineIntent(new RuleIntentClassifier(), List.of(), 0.7, new IntentMetrics(new SimpleMeterRegistry()),
            features, () -> model, 1.0);
        messages = IntentBenchData.heldOutTexts();
    }

    @Benchmark
    public IntentResult decide() {
        String message = messages.get(next++ % messages.size());
        return online.classify(message, IntentPath.CHAT);
    }
}
