package io.sluice.bench.jmh;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.sluice.api.admission.AdmissionProperties;
import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.intent.Priority;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link PriorityAdmission}: one admit + release (the ticket closed at once), on the caller's thread.
 * <ul>
 * <li>{@code uncontended}: one thread, a free slot every time (the fast path: lock, count, ticket);</li>
 * <li>{@code contendedFree}: 4 threads, capacity 64, so nobody queues: the cost of the shared lock;</li>
 * <li>{@code contendedQueued}: 4 threads of mixed classes (S, A, B, B) on capacity 1: three wait in the
 * priority queue and every release hands the slot to the next waiter (a park/unpark per admit).</li>
 * </ul>
 * Max wait is long (1 min) and the initial service time short, so nothing is declined: every
 * operation is a real admission.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AdmissionBenchmark {

    private static final Duration MAX_WAIT = Duration.ofMinutes(1);
    private static final Priority[] CLASSES = {Priority.S, Priority.A, Priority.B, Priority.B};

    @State(Scope.Benchmark)
    public static class Shared {
        PriorityAdmission free;
        PriorityAdmission single;
        final AtomicInteger threads = new AtomicInteger();

        @Setup(Level.Trial)
        public void setUp() {
            free = new PriorityAdmission(properties(64));
            single = new PriorityAdmission(properties(1));
        }

        private static AdmissionProperties properties(int capacity) {
            AdmissionProperties d = AdmissionProperties.defaults(capacity);
            return new AdmissionProperties(capacity, null, d.vipFactor(), d.agingQuantum(), null, null,
                Duration.ofMillis(1), d.smoothing());
        }
    }

    /** Each thread keeps one priority class. */
    @State(Scope.Thread)
    public static class Caller {
        Priority priority;

        @Setup(Level.Trial)
        public void setUp(Shared shared) {
            priority = CLASSES[shared.threads.getAndIncrement() % CLASSES.length];
        }
    }

    @Benchmark
    @Threads(1)
    public void uncontended(Shared shared, Blackhole bh) {
        admitAndRelease(shared.free, Priority.A, bh);
    }

    @Benchmark
    @Threads(4)
    public void contendedFree(Shared shared, Caller caller, Blackhole bh) {
        admitAndRelease(shared.free, caller.priority, bh);
    }

    @Benchmark
    @Threads(4)
    public void contendedQueued(Shared shared, Caller caller, Blackhole bh) {
        admitAndRelease(shared.single, caller.priority, bh);
    }

    private static void admitAndRelease(PriorityAdmission admission, Priority priority, Blackhole bh) {
        PriorityAdmission.Ticket ticket = admission.admit(priority, false, MAX_WAIT, PriorityAdmission.QueueListener.NONE);
        if (!(ticket instanceof PriorityAdmission.Admitted)) {
            throw new IllegalStateException("declined: " + ticket);
        }
        bh.consume(ticket.waitedMs());
        ticket.close();
    }
}
