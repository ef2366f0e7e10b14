package io.sluice.governance.derived;

import java.time.Duration;
import java.util.Optional;
import java.util.TreeMap;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;

/**
 * The measured p99 of a lane's LLM calls, read from the gateway's latency histogram
 * ({@code sluice.gateway.latency{lane,model}}, all models merged), so the derived-threshold formula runs
 * on what this instance observed rather than on a number typed in. The histogram counts since start;
 * the value is the upper bound of the bucket holding the 99th percentile.
 */
public final class MeasuredLatency {

    /** Fewer calls than this say too little about a tail to act on. */
    public static final long MIN_CALLS = 20;

    private MeasuredLatency() {
    }

    /** The p99 of the lane's calls, or empty when fewer than {@link #MIN_CALLS} were measured. */
    public static Optional<Duration> p99(MeterRegistry registry, String lane) {
        TreeMap<Double, Double> cumulative = new TreeMap<>(); // bucket bound (ns) → calls at or below it
        long calls = 0;
        double maxNanos = 0;
        for (Timer timer : registry.find("sluice.gateway.latency").tag("lane", lane).timers()) {
            HistogramSnapshot snapshot = timer.takeSnapshot();
            calls += snapshot.count();
            maxNanos = Math.max(maxNanos, snapshot.max(java.util.concurrent.TimeUnit.NANOSECONDS));
            for (CountAtBucket bucket : snapshot.histogramCounts()) {
                cumulative.merge(bucket.bucket(java.util.concurrent.TimeUnit.NANOSECONDS), bucket.count(), Double::sum);
            }
        }
        if (calls < MIN_CALLS) {
            return Optional.empty();
        }
        double wanted = Math.ceil(0.99 * calls);
        for (var bucket : cumulative.entrySet()) {
            if (bucket.getValue() >= wanted) {
                return Optional.of(Duration.ofNanos((long) bucket.getKey().doubleValue()));
            }
        }
        // no histogram buckets (a registry without them) or the tail is past the last bucket: the maximum
        return Optional.of(Duration.ofNanos((long) maxNanos));
    }
}
