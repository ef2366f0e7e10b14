package io.sluice.api.ingress;

/**
 * The global admission rate as this instance sees it, adjusted AIMD-style from signals of online overload
 * (p95 latency and errors of online answers, requests queued for admission, CPU only together with slow
 * answers): any over its limit shrinks the rate multiplicatively (fast), a healthy tick adds a small
 * fraction of the maximum back (slow). Pure and single-threaded (the limiter's tick owns it).
 */
public final class AdaptiveRate {

    /**
     * What is measured each tick: online answers' p95 latency and error ratio, process CPU, answers in the
     * window, and online requests queued for admission.
     */
    public record Signals(double p95LatencyMs, double errorRatio, double cpu, int samples, int queued) {

        public Signals(double p95LatencyMs, double errorRatio, double cpu, int samples) {
            this(p95LatencyMs, errorRatio, cpu, samples, 0);
        }
    }

    private final RateLimitProperties.Global limits;
    private double rate;

    public AdaptiveRate(RateLimitProperties.Global limits) {
        this.limits = limits;
        this.rate = limits.maxRate();
    }

    public double rate() {
        return rate;
    }

    /** Adjusts the rate for one tick and returns it. */
    public double adjust(Signals signals) {
        boolean slow = signals.p95LatencyMs() > limits.p95LatencyMs();
        // CPU alone is no overload: background work (an import's embeddings) may fill it while online answers
        // stay fast; it counts only when online answers slow down too
        boolean cpuBound = signals.cpu() > limits.cpu() && signals.p95LatencyMs() > limits.p95LatencyMs() / 2;
        boolean queueing = limits.maxQueued() > 0 && signals.queued() > limits.maxQueued();
        boolean overloaded = queueing
            || signals.samples() >= limits.minSamples() && (slow || signals.errorRatio() > limits.errorRatio() || cpuBound);
        if (overloaded) {
            rate = Math.max(limits.minRate(), rate * limits.decreaseFactor());
        } else {
            rate = Math.min(limits.maxRate(), rate + limits.maxRate() * limits.recoverFraction());
        }
        return rate;
    }
}
