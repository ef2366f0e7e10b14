package io.sluice.bench.load;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

/**
 * Per-second record of one scenario run: outcomes by the second their request was due, plus the
 * platform's and the mock's gauges sampled each second. Second 0 is the scenario's start.
 */
final class Timeline {

    static final long MAX_LATENCY_NS = TimeUnit.SECONDS.toNanos(120);

    /** One second of outcomes. */
    static final class Second {
        final Map<String, Integer> tiers = new TreeMap<>();
        final Map<Outcome.Kind, Integer> kinds = new EnumMap<>(Outcome.Kind.class);
        int cached;
        int sent;
        final Histogram latency = new Histogram(MAX_LATENCY_NS, 2);

        int answered() {
            return kinds.getOrDefault(Outcome.Kind.ANSWERED, 0);
        }

        int f4() {
            return tiers.getOrDefault("F4", 0);
        }
    }

    /** Gauges sampled once per second. */
    record Sample(double second, double permitsInUse, double permitsBatch, double level, double admissionQueue,
            double batchQueue, long mockServed, long mockRequests, long mockRejected, int mockInFlight) {
    }

    private final long startNanos;
    private final Map<Integer, Second> seconds = new TreeMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final Map<String, Histogram> waitByPriority = new LinkedHashMap<>();
    private final Histogram latency = new Histogram(MAX_LATENCY_NS, 3);
    private final List<Outcome> violations = new ArrayList<>();
    private final Map<Outcome.Kind, Integer> kinds = new EnumMap<>(Outcome.Kind.class);
    private final Map<String, Integer> tiers = new TreeMap<>();
    private int notSent;
    /** Answers as {due second, answered second, 1 if F4 else 0}: time to degrade is read from these. */
    private final List<double[]> answers = new ArrayList<>();

    Timeline(long startNanos) {
        this.startNanos = startNanos;
        for (String p : List.of("S", "A", "B")) {
            waitByPriority.put(p, new Histogram(TimeUnit.MINUTES.toMillis(2), 3));
        }
    }

    long startNanos() {
        return startNanos;
    }

    double secondsSinceStart(long nanos) {
        return (nanos - startNanos) / 1e9;
    }

    synchronized void sent(long intendedNanos) {
        second(intendedNanos).sent++;
    }

    synchronized void notSent() {
        notSent++;
    }

    synchronized void record(long intendedNanos, Outcome outcome) {
        Second s = second(intendedNanos);
        s.kinds.merge(outcome.kind(), 1, Integer::sum);
        kinds.merge(outcome.kind(), 1, Integer::sum);
        if (outcome.kind() == Outcome.Kind.ANSWERED) {
            s.tiers.merge(outcome.tier(), 1, Integer::sum);
            tiers.merge(outcome.tier(), 1, Integer::sum);
            if (outcome.cached()) {
                s.cached++;
            }
            long ns = Math.min(MAX_LATENCY_NS, Math.max(1, outcome.latencyNs()));
            s.latency.recordValue(ns);
            latency.recordValue(ns);
            double due = (intendedNanos - startNanos) / 1e9;
            answers.add(new double[] {due, due + outcome.latencyNs() / 1e9, outcome.f4() ? 1 : 0});
            Histogram wait = waitByPriority.get(outcome.priority());
            // the admission wait of answers that went through admission (an LLM tier); F1 answers never queue
            if (wait != null && !outcome.cached() && List.of("F4", "F3", "F2").contains(outcome.tier())) {
                wait.recordValue(Math.min(wait.getHighestTrackableValue(), Math.max(0, outcome.queueWaitMs())));
            }
        } else if (outcome.kind() == Outcome.Kind.VIOLATION && violations.size() < 1000) {
            violations.add(outcome);
        }
    }

    synchronized void sample(Sample sample) {
        samples.add(sample);
    }

    private Second second(long nanos) {
        int index = (int) Math.max(0, (nanos - startNanos) / 1_000_000_000L);
        return seconds.computeIfAbsent(index, i -> new Second());
    }

    synchronized Map<Integer, Second> seconds() {
        return new TreeMap<>(seconds);
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    synchronized Map<String, Histogram> waitByPriority() {
        return waitByPriority;
    }

    synchronized Histogram latency() {
        return latency;
    }

    synchronized List<Outcome> violations() {
        return List.copyOf(violations);
    }

    synchronized int count(Outcome.Kind kind) {
        return kinds.getOrDefault(kind, 0);
    }

    synchronized Map<String, Integer> tiers() {
        return new TreeMap<>(tiers);
    }

    synchronized int total() {
        return kinds.values().stream().mapToInt(Integer::intValue).sum();
    }

    synchronized int notSentCount() {
        return notSent;
    }

    /** Seconds from {@code from} to the first non-F4 answer delivered for a request due at or after it (NaN = none). */
    synchronized double firstDegradedAnswerAfter(double from) {
        double first = Double.NaN;
        for (double[] a : answers) {
            if (a[0] >= from && a[2] == 0 && (Double.isNaN(first) || a[1] < first)) {
                first = a[1];
            }
        }
        return Double.isNaN(first) ? Double.NaN : first - from;
    }

    /** F4 answers ÷ answers among requests due in [from, to) seconds; NaN when none answered. */
    synchronized double f4Share(double from, double to) {
        int answered = 0;
        int f4 = 0;
        for (Map.Entry<Integer, Second> e : seconds.entrySet()) {
            if (e.getKey() >= from && e.getKey() < to) {
                answered += e.getValue().answered();
                f4 += e.getValue().f4();
            }
        }
        return answered == 0 ? Double.NaN : (double) f4 / answered;
    }
}
