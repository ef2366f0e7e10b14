package io.sluice.bench.jmh;

import java.lang.management.ManagementFactory;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.intent.IntentFeatures;
import io.sluice.api.intent.IntentMetrics;
import io.sluice.api.intent.IntentPath;
import io.sluice.api.intent.OnlineIntent;
import io.sluice.api.intent.RuleIntentClassifier;
import io.sluice.semantics.intent.IntentDefinition;
import io.sluice.semantics.intent.IntentModel;
import io.sluice.semantics.intent.IntentTrainer;

/**
 * Wall and process CPU time of the intent training (5,000 examples: embedding, learning, both) and of
 * fresh-message decisions, memo bypassed: CPU time is what a loaded shared machine cannot inflate much,
 * so before/after comparisons on a busy machine read it (docs/benchmarks-intent.md). Not a JMH benchmark;
 * run with {@code java -cp bench/target/classes:<classpath> io.sluice.bench.jmh.IntentCpuProbe} from the
 * repository root.
 */
public final class IntentCpuProbe {
    static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    public static void main(String[] args) {
        IntentFeatures front = IntentBenchData.uncachedFeatures();
        List<IntentDefinition> taxonomy = IntentBenchData.taxonomyOf(5000);
        List<String> texts = taxonomy.stream().flatMap(i -> i.examples().stream()).toList();
        long w0 = System.nanoTime(), c0 = cpu();
        List<float[]> x = front.ofAll(texts);
        System.out.printf("embed %d texts (first, incl. model load): wall %.1f s cpu %.1f s%n", texts.size(),
            (System.nanoTime() - w0) / 1e9, (cpu() - c0) / 1e9);
        java.util.Map<String, float[]> pre = new java.util.HashMap<>();
        for (int i = 0; i < texts.size(); i++) pre.put(texts.get(i), x.get(i));
        IntentTrainer.Settings settings = new IntentTrainer.Settings(0.2, 0.3, 0.4);
        IntentTrainer precomputed = new IntentTrainer(t -> t.stream().map(pre::get).toList());
        IntentModel model = null;
        for (int r = 0; r < 3; r++) {
            w0 = System.nanoTime(); c0 = cpu();
            model = precomputed.train(taxonomy, front.embedderId(), settings).model();
            System.out.printf("learn (precomputed) rep %d: wall %.1f s cpu %.1f s%n", r, (System.nanoTime() - w0) / 1e9,
                (cpu() - c0) / 1e9);
        }
        w0 = System.nanoTime(); c0 = cpu();
        new IntentTrainer(front::ofAll).train(taxonomy, front.embedderId(), settings);
        System.out.printf("train (embedded, no memo): wall %.1f s cpu %.1f s%n", (System.nanoTime() - w0) / 1e9,
            (cpu() - c0) / 1e9);
        IntentModel m = model;
        OnlineIntent online = new OnlineIntent(new RuleIntentClassifier(), List.of(), 0.7,
            new IntentMetrics(new SimpleMeterRegistry()), front, () -> m, 1.0);
        List<String> messages = IntentBenchData.heldOutTexts();
        for (String s : messages) online.classify(s + " ", IntentPath.CHAT);   // warm
        w0 = System.nanoTime(); c0 = cpu();
        int n = 0;
        for (int r = 0; r < 2; r++) for (String s : messages) { online.classify(r + " " + s, IntentPath.CHAT); n++; }
        System.out.printf("decide %d messages (no memo): wall %.3f ms/msg cpu %.3f ms/msg%n", n,
            (System.nanoTime() - w0) / 1e6 / n, (cpu() - c0) / 1e6 / n);
    }
}
