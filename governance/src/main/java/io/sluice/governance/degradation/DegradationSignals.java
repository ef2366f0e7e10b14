package io.sluice.governance.degradation;

/**
 * Measured load, as the automatic level sees it. Several sources are combined field by field,
 * worst value wins.
 *
 * @param p95LatencyMs    p95 latency of LLM (or answering) calls over the recent window
 * @param errorRatio      failed / all calls over the window, 0..1
 * @param permitOccupancy interactive permits in use / permits, 0..1
 * @param queueLength     requests waiting for admission
 */
public record DegradationSignals(double p95LatencyMs, double errorRatio, double permitOccupancy, int queueLength) {

    public static final DegradationSignals IDLE = new DegradationSignals(0, 0, 0, 0);

    public DegradationSignals worst(DegradationSignals other) {
        return new DegradationSignals(Math.max(p95LatencyMs, other.p95LatencyMs), Math.max(errorRatio, other.errorRatio),
            Math.max(permitOccupancy, other.permitOccupancy), Math.max(queueLength, other.queueLength));
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "p95=%.0fms errors=%.2f permits=%.2f queue=%d", p95LatencyMs,
            errorRatio, permitOccupancy, queueLength);
    }
}
