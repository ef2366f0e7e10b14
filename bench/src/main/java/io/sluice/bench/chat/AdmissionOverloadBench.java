package io.sluice.bench.chat;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.sluice.api.admission.AdmissionProperties;
import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.intent.Priority;

import org.HdrHistogram.Histogram;

/**
 * The local admission scheduler under 5× overload: arrivals at five times what the slots can serve,
 * 10 % S / 30 % A / 60 % B, fixed service time. Reports per class how many were admitted or
 * declined (answered at F1 instead of waiting) and the waits of the admitted ones. No servers needed.
 */
public final class AdmissionOverloadBench {

    static final int CAPACITY = 4;
    static final long SERVICE_MS = 50;                 // capacity = 4 / 50 ms = 80 req/s
    static final double OVERLOAD = 5;
    static final long SECONDS = 6;
    static final long QUANTUM_MS = Long.getLong("quantumMs", 500);

    public static void main(String[] args) throws Exception {
        Map<Priority, Duration> maxWait = Map.of(Priority.S, Duration.ofMillis(500), Priority.A,
            Duration.ofMillis(750), Priority.B, Duration.ofMillis(1_000));
        AdmissionProperties properties = new AdmissionProperties(CAPACITY, null, 0.5, Duration.ofMillis(QUANTUM_MS), maxWait,
            null, Duration.ofMillis(SERVICE_MS), 0.2);
        PriorityAdmission admission = new PriorityAdmission(properties);
        double rate = OVERLOAD * CAPACITY * 1000.0 / SERVICE_MS;
        long intervalNanos = (long) (1e9 / rate);
        int total = (int) (rate * SECONDS);

        Map<Priority, Histogram> waits = new EnumMap<>(Priority.class);
        Map<Priority, AtomicInteger> admitted = new EnumMap<>(Priority.class);
        Map<Priority, AtomicInteger> declined = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            waits.put(p, new Histogram(TimeUnit.MINUTES.toMillis(1), 3));
            admitted.put(p, new AtomicInteger());
            declined.put(p, new AtomicInteger());
        }
        System.out.printf("machine: %d cores, Java %s%n", Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version"));
        System.out.printf("settings: capacity %d, service %d ms (%.0f req/s), offered %.0f req/s (%.0fx) for %d s; "
            + "weights 1:2:3, aging quantum %d ms, B reserved share 0.25, max wait S 500 / A 750 / B 1000 ms; mix 10%% S, 30%% A, 60%% B%n",
            CAPACITY, SERVICE_MS, CAPACITY * 1000.0 / SERVICE_MS, rate, OVERLOAD, SECONDS, QUANTUM_MS);

        ExecutorService pool = Executors.newCachedThreadPool();
        Random random = new Random(42);
        long start = System.nanoTime();
        for (int i = 0; i < total; i++) {
            long due = start + i * intervalNanos;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            double r = random.nextDouble();
            Priority priority = r < 0.1 ? Priority.S : r < 0.4 ? Priority.A : Priority.B;
            pool.execute(() -> {
                PriorityAdmission.Ticket ticket = admission.admit(priority, false, PriorityAdmission.QueueListener.NONE);
                if (ticket instanceof PriorityAdmission.Admitted) {
                    synchronized (waits) {
                        waits.get(priority).recordValue(ticket.waitedMs());
                    }
                    admitted.get(priority).incrementAndGet();
                    try {
                        Thread.sleep(SERVICE_MS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        ticket.close();
                    }
                } else {
                    declined.get(priority).incrementAndGet();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);

        System.out.println("class  admitted  declined(F1)  wait p50   p95    max (ms)");
        for (Priority p : Priority.values()) {
            Histogram h = waits.get(p);
            System.out.printf("%-5s  %8d  %12d  %8d %6d %6d%n", p, admitted.get(p).get(), declined.get(p).get(),
                h.getValueAtPercentile(50), h.getValueAtPercentile(95), h.getMaxValue());
        }
        System.out.printf("left in queue: %d, in flight: %d%n", admission.queueLength(), admission.inFlight());
    }
}
