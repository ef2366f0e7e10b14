package io.sluice.bench.batch;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.gateway.LlmStream;
import io.sluice.governance.gateway.LlmStreamListener;

/**
 * Benchmark stand-in for the gateway's batch lane: {@code permits} concurrent calls (callers queue for a
 * permit, as the batch lane paces) of a fixed mock latency each. Its throughput limit is
 * permits ÷ latency (Little's law).
 */
public class PacedGateway implements LlmGateway {

    private final Semaphore permits;
    private final long latencyMillis;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong firstStart = new AtomicLong();
    private final AtomicLong lastEnd = new AtomicLong();
    private final AtomicLong busyNanos = new AtomicLong();

    public PacedGateway(int permits, long latencyMillis) {
        this.permits = new Semaphore(permits, true);
        this.latencyMillis = latencyMillis;
    }

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public LlmOutcome call(LlmRequest request) {
        try {
            permits.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LlmOutcome.Saturated(request.lane(), java.time.Duration.ofMillis(100), "interrupted");
        }
        long started = System.nanoTime();
        firstStart.compareAndSet(0, started);
        try {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            Thread.sleep(latencyMillis);
            calls.incrementAndGet();
            return new LlmOutcome.Answered("summary", "mock", 100, 50, 1, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LlmOutcome.Degraded(LlmOutcome.Reason.TIMEOUT, "interrupted");
        } finally {
            inFlight.decrementAndGet();
            long ended = System.nanoTime();
            busyNanos.addAndGet(ended - started);
            lastEnd.accumulateAndGet(ended, Math::max);
            permits.release();
        }
    }

    @Override
    public LlmStream stream(LlmRequest request, LlmStreamListener listener) {
        throw new UnsupportedOperationException();
    }

    public long calls() {
        return calls.get();
    }

    /** Seconds from the first call's start to the last call's end. */
    public double activeSeconds() {
        return (lastEnd.get() - firstStart.get()) / 1e9;
    }

    /** Mean seconds a call held its permit (the mock latency plus scheduling jitter). */
    public double meanCallSeconds() {
        return calls.get() == 0 ? 0 : busyNanos.get() / 1e9 / calls.get();
    }

    public int maxInFlight() {
        return maxInFlight.get();
    }
}
