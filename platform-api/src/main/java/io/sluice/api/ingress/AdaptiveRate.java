package io.sluice.api.ingress;

/**
 * The global admission rate of this instance, adjusted AIMD-style from measured signals: any signal
 * over its limit shrinks the rate multiplicatively (fast), a healthy tick adds a small fraction of
 * the maximum back (slow). Pure and single-threaded (the limiter's tick owns it).
 */
public final class AdaptiveRate {

    /** What is measured each tick. */
    public record Signals(double p95LatencyMs, double errorRatio, double cpu, int samples) {
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
        boolean overloaded = signals.samples() >= limits.minSamples() && (signals.p95LatencyMs() > limits.p95LatencyMs() || signals.errorRatio() > limits.errorRatio()
            || signals.cpu() > limits.cpu());
        if (overloaded) {
            rate = Math.max(limits.minRate(), rate * limits.decreaseFactor());
        } else {
            rate = Math.min(limits.maxRate(), rate + limits.maxRate() * limits.recoverFraction());
        }
        return rate;
    }
}
