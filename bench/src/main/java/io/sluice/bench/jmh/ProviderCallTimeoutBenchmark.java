package io.sluice.bench.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import okio.AsyncTimeout;

/**
 * What the provider client's per-call deadline costs with many calls in flight. Every call of
 * {@code OpenAiCompatibleClient} sets OkHttp's call timeout, which is an okio {@link AsyncTimeout}: entered when
 * the call starts, exited when it ends, all of them in one queue behind one lock that a watchdog thread
 * reads. {@code callEndsAndNextStarts} is one call ending and the next starting (exit, then enter) with
 * {@code inFlight} other calls' deadlines queued, oldest first, as in a closed loop of equally long calls.
 * Run it with {@code MAVEN_ARGS=-Dokio.version=…} to compare okio versions (docs/capacity.md).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@State(Scope.Benchmark)
public class ProviderCallTimeoutBenchmark {

    @Param({"128", "1024"})
    public int inFlight;

    private AsyncTimeout[] calls;
    private int next;

    @Setup(Level.Trial)
    public void startTheCallsInFlight() {
        calls = new AsyncTimeout[inFlight];
        for (int i = 0; i < inFlight; i++) {
            calls[i] = new AsyncTimeout();
            calls[i].timeout(30, TimeUnit.SECONDS);
            calls[i].enter();
        }
    }

    @Benchmark
    public boolean callEndsAndNextStarts() {
        AsyncTimeout call = calls[next];
        next = next + 1 == calls.length ? 0 : next + 1;
        boolean timedOut = call.exit();
        call.enter();
        return timedOut;
    }

    @TearDown(Level.Trial)
    public void endTheCalls() {
        for (AsyncTimeout call : calls) {
            call.exit();
        }
    }
}
