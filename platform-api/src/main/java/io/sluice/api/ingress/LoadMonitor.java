package io.sluice.api.ingress;

import java.util.Arrays;

/**
 * Recent answering latencies and failures over a sliding window (a fixed ring of samples),
 * for the adaptive limiter and the degradation level. Recording is O(1) under a short lock;
 * the p95 is computed on demand (once per tick), not per request.
 */
public class LoadMonitor {

    /** What the window shows. */
    public record Snapshot(double p95LatencyMs, double errorRatio, int samples) {
    }

    private final long windowNanos;
    private final long[] latencies;
    private final long[] at;
    private final boolean[] failed;
    private int next;
    private int size;

    public LoadMonitor(int capacity, java.time.Duration window) {
        this.latencies = new long[capacity];
        this.at = new long[capacity];
        this.failed = new boolean[capacity];
        this.windowNanos = window.toNanos();
    }

    public synchronized void record(long latencyMs, boolean failure) {
        latencies[next] = latencyMs;
        at[next] = System.nanoTime();
        failed[next] = failure;
        next = (next + 1) % latencies.length;
        size = Math.min(size + 1, latencies.length);
    }

    public Snapshot snapshot() {
        long[] values;
        int count = 0;
        int failures = 0;
        synchronized (this) {
            long now = System.nanoTime();
            values = new long[size];
            for (int i = 0; i < size; i++) {
                if (now - at[i] <= windowNanos) {
                    values[count++] = latencies[i];
                    if (failed[i]) {
                        failures++;
                    }
                }
            }
        }
        if (count == 0) {
            return new Snapshot(0, 0, 0);
        }
        long[] window = Arrays.copyOf(values, count);
        Arrays.sort(window);
        int index = (int) Math.ceil(0.95 * count) - 1;
        return new Snapshot(window[Math.max(0, index)], (double) failures / count, count);
    }
}
