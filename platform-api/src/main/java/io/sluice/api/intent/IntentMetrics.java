package io.sluice.api.intent;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Intent metrics: {@code sluice.chat.intent.decisions{source, priority}} counts who decided (rules,
 * knn, llm), {@code sluice.chat.intent.duration{source}} times the whole classification and
 * {@code sluice.chat.intent.enhancer{enhancer, opinion}} each enhancer call.
 */
public final class IntentMetrics {

    private final MeterRegistry meters;

    public IntentMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    /** Asks {@code enhancer}, timed. */
    public Optional<IntentResult> ask(IntentEnhancer enhancer, String message, IntentResult current) {
        long started = System.nanoTime();
        Optional<IntentResult> result = enhancer.refine(message, current);
        Timer.builder("sluice.chat.intent.enhancer").tag("enhancer", enhancer.name())
            .tag("opinion", String.valueOf(result.isPresent())).register(meters)
            .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        return result;
    }

    /** Records the final decision and how long the whole classification took. */
    public void decided(IntentResult result, long nanos) {
        meters.counter("sluice.chat.intent.decisions", "source", result.source(), "priority",
            result.priority().name()).increment();
        Timer.builder("sluice.chat.intent.duration").tag("source", result.source()).register(meters)
            .record(nanos, TimeUnit.NANOSECONDS);
    }
}
