package io.sluice.governance.derived;

import java.time.Duration;

/**
 * A lane's permit count derived from what the provider allows and what calls cost, so operators see
 * why a number is what it is: {@code C = min(0.8 · C_provider, budget/60 · T_p99)}.
 *
 * <p>{@code budget/60 · T_p99} is Little's law: calls per second times how long each holds a slot.
 *
 * @param providerConcurrency  C_provider, the provider's concurrent-call cap
 * @param callsPerMinute       the per-minute call budget
 * @param p99                  measured p99 latency of one call
 * @param byProvider           0.8 · C_provider
 * @param byBudget             budget/60 · T_p99
 * @param permits              the result, rounded down, at least 1
 */
public record DerivedThreshold(int providerConcurrency, int callsPerMinute, Duration p99, double byProvider,
        double byBudget, int permits) {

    public static final double PROVIDER_HEADROOM = 0.8;

    public static DerivedThreshold derive(int providerConcurrency, int callsPerMinute, Duration p99) {
        if (providerConcurrency < 1 || callsPerMinute < 1 || p99 == null || p99.isNegative()) {
            throw new IllegalArgumentException("provider concurrency and calls per minute must be positive, p99 not negative");
        }
        double byProvider = PROVIDER_HEADROOM * providerConcurrency;
        double byBudget = callsPerMinute / 60.0 * (p99.toNanos() / 1e9);
        int permits = (int) Math.max(1, Math.floor(Math.min(byProvider, byBudget)));
        return new DerivedThreshold(providerConcurrency, callsPerMinute, p99, byProvider, byBudget, permits);
    }

    /** Which term bound the result, in words an operator reads on the console. */
    public String explanation() {
        String bound = byProvider <= byBudget ? "provider concurrency" : "call budget × p99 latency";
        return String.format(java.util.Locale.ROOT,
            "C = min(0.8 × %d, %d/60 × %.3f s) = min(%.2f, %.2f) → %d permits (bound by %s)",
            providerConcurrency, callsPerMinute, p99.toNanos() / 1e9, byProvider, byBudget, permits, bound);
    }
}
