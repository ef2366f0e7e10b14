package io.sluice.governance.alerting;

import java.util.OptionalDouble;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationSignals;

/**
 * Reads a rule's signal by name: the load signals the automatic level uses (worst over every source),
 * the current degradation level, or any meter of the registry ({@code metric:<name>}: the largest value
 * among its series, so "any lane's breaker open" is one rule). Negative or NaN values mean no data
 * (gauges report -1 for "no limit set").
 */
public final class AlertSignals {

    static final String METRIC = "metric:";

    private final MeterRegistry registry;
    private final Supplier<DegradationSignals> load;
    private final Supplier<DegradationLevel> level;

    public AlertSignals(MeterRegistry registry, Supplier<DegradationSignals> load, Supplier<DegradationLevel> level) {
        this.registry = registry;
        this.load = load;
        this.level = level;
    }

    /** Whether a rule may name this signal (checked at start-up so a typo is not a silent rule). */
    static boolean known(String signal) {
        return switch (signal) {
            case "p95-latency-ms", "error-ratio", "permit-occupancy", "queue-length", "degradation-level" -> true;
            default -> signal.startsWith(METRIC) && signal.length() > METRIC.length();
        };
    }

    public OptionalDouble read(String signal) {
        return switch (signal) {
            case "p95-latency-ms" -> present(load.get().p95LatencyMs());
            case "error-ratio" -> present(load.get().errorRatio());
            case "permit-occupancy" -> present(load.get().permitOccupancy());
            case "queue-length" -> present(load.get().queueLength());
            case "degradation-level" -> present(level.get().ordinal());
            default -> signal.startsWith(METRIC) ? meter(signal.substring(METRIC.length())) : OptionalDouble.empty();
        };
    }

    private OptionalDouble meter(String name) {
        double max = Double.NaN;
        for (Meter meter : registry.find(name).meters()) {
            for (Measurement m : meter.measure()) {
                double v = m.getValue();
                if (!Double.isNaN(v) && v >= 0 && (Double.isNaN(max) || v > max)) {
                    max = v;
                }
                break; // the first measurement: a gauge's value, a counter's count
            }
        }
        return present(max);
    }

    private static OptionalDouble present(double v) {
        return Double.isNaN(v) || v < 0 ? OptionalDouble.empty() : OptionalDouble.of(v);
    }
}
