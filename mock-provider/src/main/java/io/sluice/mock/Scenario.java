package io.sluice.mock;

import java.util.List;

/**
 * How the mock provider behaves. Immutable; {@link MockProvider#scenario(Scenario)} swaps it at once,
 * and {@code PUT /_mock/scenario} overlays the JSON fields it is given on the current one.
 *
 * @param seed                 seeds every random draw (request n draws from seed and n): same seed,
 *                             same arrival order, same answers
 * @param latency              FIXED (latencyMs), NORMAL (latencyMs ± latencyStdDevMs, gaussian) or
 *                             LONG_TAIL (latencyMs, but tailProbability of calls take tailMs)
 * @param interTokenDelayMs    delay before each streamed token (also added per token to plain answers)
 * @param errorRate            share of calls answered with one of errorStatuses (500/502/503)
 * @param rateLimitRate        share of calls answered 429 with Retry-After and x-ratelimit-* headers
 * @param retryAfterSeconds    the Retry-After of a 429
 * @param hang                 never answer (until the scenario changes or the server stops)
 * @param malformedRate        share of calls answered 200 with a truncated, unparsable body
 * @param concurrencyCap       calls in flight above this are answered 429 (0 = no cap)
 * @param tpmCap               tokens (prompt + completion) per tpmWindowMs above which calls get 429 (0 = none)
 * @param tpmWindowMs          the TPM window (60 000 in real life; shorter in tests)
 * @param completionTokens     tokens of a generated answer (capped by the request's max_tokens)
 * @param responseText         fixed answer text (null = generated "tok0 tok1 ...")
 * @param cutStreamAfterTokens a stream is cut (no finish_reason, no [DONE]) after this many tokens (-1 = never)
 * @param failingModels        models that always answer 500 (to exercise fallback chains)
 */
public record Scenario(
        long seed,
        Latency latency,
        long latencyMs,
        long latencyStdDevMs,
        double tailProbability,
        long tailMs,
        long interTokenDelayMs,
        double errorRate,
        List<Integer> errorStatuses,
        double rateLimitRate,
        int retryAfterSeconds,
        boolean hang,
        double malformedRate,
        int concurrencyCap,
        long tpmCap,
        long tpmWindowMs,
        int completionTokens,
        String responseText,
        int cutStreamAfterTokens,
        List<String> failingModels) {

    public enum Latency { FIXED, NORMAL, LONG_TAIL }

    public Scenario {
        latency = latency == null ? Latency.FIXED : latency;
        errorStatuses = errorStatuses == null || errorStatuses.isEmpty() ? List.of(500, 502, 503) : List.copyOf(errorStatuses);
        tpmWindowMs = tpmWindowMs <= 0 ? 60_000 : tpmWindowMs;
        completionTokens = completionTokens <= 0 ? 16 : completionTokens;
        failingModels = failingModels == null ? List.of() : List.copyOf(failingModels);
        requireRate("errorRate", errorRate);
        requireRate("rateLimitRate", rateLimitRate);
        requireRate("malformedRate", malformedRate);
        requireRate("tailProbability", tailProbability);
        if (latencyMs < 0 || latencyStdDevMs < 0 || tailMs < 0 || interTokenDelayMs < 0 || concurrencyCap < 0 || tpmCap < 0
                || retryAfterSeconds < 0) {
            throw new IllegalArgumentException("durations, caps and Retry-After must not be negative");
        }
    }

    private static void requireRate(String name, double rate) {
        if (rate < 0 || rate > 1) {
            throw new IllegalArgumentException(name + " must be within [0, 1], was " + rate);
        }
    }

    /** A healthy, instant provider: 16-token answers, no errors, no caps. */
    public static Scenario healthy() {
        return new Scenario(42, Latency.FIXED, 0, 0, 0, 0, 0, 0, null, 0, 1, false, 0, 0, 0, 60_000, 16, null, -1, List.of());
    }

    public Scenario withSeed(long v) {
        return new Scenario(v, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withFixedLatency(long ms) {
        return new Scenario(seed, Latency.FIXED, ms, 0, 0, 0, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withNormalLatency(long meanMs, long stdDevMs) {
        return new Scenario(seed, Latency.NORMAL, meanMs, stdDevMs, 0, 0, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withLongTailLatency(long ms, double tailShare, long tailLatencyMs) {
        return new Scenario(seed, Latency.LONG_TAIL, ms, 0, tailShare, tailLatencyMs, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withInterTokenDelay(long ms) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, ms, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withErrors(double rate, Integer... statuses) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, rate, List.of(statuses), rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withRateLimited(double rate, int retryAfter) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, errorRate, errorStatuses, rate, retryAfter, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withHang(boolean v) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, v, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withMalformed(double rate) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, rate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withConcurrencyCap(int cap) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, cap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withTpmCap(long cap, long windowMs) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, cap, windowMs, completionTokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withCompletionTokens(int tokens) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, tokens, responseText, cutStreamAfterTokens, failingModels);
    }

    public Scenario withResponseText(String text) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, text, cutStreamAfterTokens, failingModels);
    }

    public Scenario withCutStreamAfter(int tokens) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, tokens, failingModels);
    }

    public Scenario withFailingModels(String... models) {
        return new Scenario(seed, latency, latencyMs, latencyStdDevMs, tailProbability, tailMs, interTokenDelayMs, errorRate, errorStatuses, rateLimitRate, retryAfterSeconds, hang, malformedRate, concurrencyCap, tpmCap, tpmWindowMs, completionTokens, responseText, cutStreamAfterTokens, List.of(models));
    }
}
