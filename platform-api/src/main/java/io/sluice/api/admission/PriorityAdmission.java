package io.sluice.api.admission;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import io.sluice.api.intent.Priority;

/**
 * Priority lanes S/A/B in front of the interactive LLM lane, for this instance.
 *
 * <p><b>Order.</b> A waiting request's turn is its virtual deadline {@code arrival + weight ×
 * agingQuantum} (weights 1 S : 2 A : 3 B, VIP × {@code vipFactor}); a freed slot goes to the smallest.
 * S is served ahead of A ahead of B, but only of requests that arrived less than
 * {@code (w_lower − w_S) × quantum} before it: a waiting request ages towards the front. With the
 * defaults (quantum 2 s, max waits S 2 / A 3 / B 4 s) an A request that has waited 2 s goes before
 * a new S, a B request that has waited 2 s before a new A; B never waits beyond its 4 s bound.
 *
 * <p><b>Capacity shares.</b> A class may have a reserved share of the slots ({@code minShare}, default
 * B 0.25): while it holds fewer slots than its share and has someone waiting, a freed slot goes to
 * its earliest waiter. So under heavy overload, when S and A alone exceed capacity, B still gets
 * some LLM answers instead of only F1.
 *
 * <p><b>Bounded wait.</b> Each request has a deadline (its class's max wait). If the ETA at arrival
 * already misses it, it is declined at once; if it is still waiting at its deadline it leaves the
 * queue. Declined requests are answered at a lower tier by the caller, never left hanging.
 *
 * <p><b>ETA.</b> {@code (position + 1) × serviceTime / capacity}, the service time smoothed
 * exponentially over completed requests.
 *
 * <p><b>Across instances.</b> With a {@link ClusterOrder} other than {@link ClusterOrder#LOCAL}, a slot
 * is only given when the cluster agrees (no more urgent waiter on another instance that could take it):
 * freed slots are then handed out by a small pump thread that asks again every
 * {@link ClusterOrder#pollInterval()} while there are waiters. Which local waiter goes is still decided
 * here. Without Redis the cluster always agrees, which is exactly the local order.
 */
public class PriorityAdmission implements AutoCloseable {

    /** Told once when a request has to queue (SSE sends it as a {@code queued} event). */
    @FunctionalInterface
    public interface QueueListener {
        QueueListener NONE = (position, etaMs) -> { };

        void queued(int position, long etaMs);
    }

    /** The result of asking for a slot. */
    public sealed interface Ticket extends AutoCloseable permits Admitted, Declined {
        long waitedMs();

        @Override
        void close();
    }

    /** A slot is held until {@link #close()} (idempotent). */
    public final class Admitted implements Ticket {
        private final Priority priority;
        private final long waitedMs;
        private final long grantedAt;
        private final AtomicBoolean released = new AtomicBoolean();

        private Admitted(Priority priority, long waitedMs) {
            this.priority = priority;
            this.waitedMs = waitedMs;
            this.grantedAt = clock.getAsLong();
        }

        public Priority priority() {
            return priority;
        }

        @Override
        public long waitedMs() {
            return waitedMs;
        }

        @Override
        public void close() {
            if (released.compareAndSet(false, true)) {
                release(priority, clock.getAsLong() - grantedAt);
            }
        }
    }

    /** No slot: the request would miss (or has missed) its deadline. */
    public record Declined(Reason reason, long etaMs, long waitedMs) implements Ticket {
        @Override
        public void close() {
        }
    }

    /** {@code WITHDRAWN}: the client took a fast or a deferred answer instead of waiting ({@link WaitOffer}). */
    public enum Reason { WOULD_MISS_DEADLINE, DEADLINE_PASSED, INTERRUPTED, WITHDRAWN }

    private static final class Waiter {
        final Priority priority;
        final long virtualDeadline;
        final long seq;
        final long clusterScore;
        final CompletableFuture<Boolean> granted = new CompletableFuture<>();

        Waiter(Priority priority, long virtualDeadline, long seq, long clusterScore) {
            this.priority = priority;
            this.virtualDeadline = virtualDeadline;
            this.seq = seq;
            this.clusterScore = clusterScore;
        }

        boolean before(Waiter other) {
            return virtualDeadline < other.virtualDeadline
                || virtualDeadline == other.virtualDeadline && seq < other.seq;
        }
    }

    private final AdmissionProperties properties;
    private final LongSupplier clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    // cluster decisions of this instance one at a time, so the in-flight count it publishes is never
    // lower than the truth (only releases, which lower it, can happen in between)
    private final ReentrantLock decisions = new ReentrantLock();
    private final ClusterOrder cluster;
    private final Thread pump;
    private volatile boolean running = true;
    private final PriorityQueue<Waiter> queue = new PriorityQueue<>((a, b) -> a.before(b) ? -1 : b.before(a) ? 1 : 0);
    private final Map<Priority, Integer> waiting = new EnumMap<>(Priority.class);
    private final Map<Priority, Integer> inFlightByClass = new EnumMap<>(Priority.class);
    private final Map<Priority, Integer> reserved = new EnumMap<>(Priority.class);
    private int inFlight;
    private long seq;
    private final AtomicLong lateOffers = new AtomicLong();
    private volatile double serviceNanos;

    public PriorityAdmission(AdmissionProperties properties) {
        this(properties, System::nanoTime);
    }

    /** With a clock in nanoseconds (tests use a fake one to check aging). */
    public PriorityAdmission(AdmissionProperties properties, LongSupplier clock) {
        this(properties, clock, ClusterOrder.LOCAL);
    }

    /** Ordered with the other instances through {@code cluster}. */
    public PriorityAdmission(AdmissionProperties properties, ClusterOrder cluster) {
        this(properties, System::nanoTime, cluster);
    }

    public PriorityAdmission(AdmissionProperties properties, LongSupplier clock, ClusterOrder cluster) {
        this.properties = properties;
        this.clock = clock;
        this.cluster = cluster;
        this.serviceNanos = properties.initialServiceTime().toNanos();
        for (Priority priority : Priority.values()) {
            waiting.put(priority, 0);
            inFlightByClass.put(priority, 0);
            reserved.put(priority, (int) Math.floor(properties.minShare().get(priority) * properties.capacity()));
        }
        if (cluster.local()) {
            pump = null;
        } else {
            pump = new Thread(this::pumpLoop, "sluice-admission-pump");
            pump.setDaemon(true);
            pump.start();
        }
    }

    /** Waits for a slot, at most the class's max wait. */
    public Ticket admit(Priority priority, boolean vip, QueueListener listener) {
        return admit(priority, vip, properties.maxWait().get(priority), listener);
    }

    public Ticket admit(Priority priority, boolean vip, Duration maxWait, QueueListener listener) {
        return admit(priority, vip, maxWait, listener, null);
    }

    /** Waits for a slot, at most the class's max wait; with a fast-mode offer when the ETA is long ({@link WaitOffer}). */
    public Ticket admit(Priority priority, boolean vip, QueueListener listener, WaitOffer offer) {
        return admit(priority, vip, properties.maxWait().get(priority), listener, offer);
    }

    /**
     * Waits for a slot, at most {@code maxWait}; with an {@code offer} (may be null), a request whose ETA
     * reaches the offer's threshold queues anyway and its client is asked whether it waits (see {@link WaitOffer}).
     */
    public Ticket admit(Priority priority, boolean vip, Duration maxWait, QueueListener listener, WaitOffer offer) {
        long arrival = clock.getAsLong();
        long offsetNanos = (long) (properties.weight(priority, vip) * properties.agingQuantum().toNanos());
        Waiter waiter;
        int position;
        long etaMs;
        long id = -1;
        long clusterScore = ClusterOrder.UNKNOWN;
        Declined declined = null;
        boolean offering = false;
        if (!cluster.local()) {
            decisions.lock();
            try {
                boolean room;
                int inFlightNow;
                lock.lock();
                try {
                    id = seq++;
                    room = queue.isEmpty() && inFlight < properties.capacity();
                    inFlightNow = inFlight;
                } finally {
                    lock.unlock();
                }
                // one Redis round trip: admitted at once if no more urgent waiter elsewhere could take the
                // cluster's free slot, else announced to the cluster with its virtual deadline
                // an offered request may stay longer than its own bound: the cluster remembers it that long
                long longest = offer == null ? maxWait.toMillis() : Math.max(maxWait.toMillis(),
                    Math.max(offer.undecidedWait(maxWait).toMillis(), offer.keptWait(maxWait).toMillis()));
                ClusterOrder.Arrival arrived = cluster.arrive(Long.toString(id), offsetNanos / 1_000_000,
                    longest, inFlightNow, room);
                if (arrived.admitted()) {
                    lock.lock();
                    try {
                        grant(priority);
                    } finally {
                        lock.unlock();
                    }
                    return new Admitted(priority, elapsedMs(arrival));
                }
                clusterScore = arrived.score();
            } finally {
                decisions.unlock();
            }
        }
        lock.lock();
        try {
            if (cluster.local()) {
                if (queue.isEmpty() && inFlight < properties.capacity()) {
                    grant(priority);
                    return new Admitted(priority, 0);
                }
                id = seq++;
            }
            long vd = arrival + offsetNanos;
            waiter = new Waiter(priority, vd, id, clusterScore);
            position = 0;
            int sameClassAhead = 0;
            for (Waiter other : queue) {
                if (other.before(waiter)) {
                    position++;
                    if (other.priority == priority) {
                        sameClassAhead++;
                    }
                }
            }
            etaMs = eta(position, properties.capacity());
            if (reserved.get(priority) > 0) {
                // its reserved slots serve its own class in order: that may come sooner
                etaMs = Math.min(etaMs, eta(sameClassAhead, reserved.get(priority)));
            }
            offering = offer != null && etaMs >= offer.thresholdMs(maxWait);
            if (etaMs > maxWait.toMillis() && !offering) {
                declined = new Declined(Reason.WOULD_MISS_DEADLINE, etaMs, 0);
            } else {
                queue.add(waiter);
                waiting.merge(priority, 1, Integer::sum);
                if (pump != null) {
                    wake.signalAll();
                }
            }
        } finally {
            lock.unlock();
        }
        if (declined != null) {
            if (clusterScore != ClusterOrder.UNKNOWN) {
                forget(id);
            }
            return declined;
        }
        listener.queued(position + 1, etaMs);
        try {
            if (!offering) {
                // with an offer at hand, the wait is asked about once it reaches the offer's threshold: the ETA
                // at arrival was short, yet the request is still waiting (slots freed slower than predicted)
                long bound = offer == null ? maxWait.toNanos()
                    : Math.min(maxWait.toNanos(), TimeUnit.MILLISECONDS.toNanos(offer.thresholdMs(maxWait)));
                long remaining = bound - (clock.getAsLong() - arrival);
                try {
                    waiter.granted.get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
                    return new Admitted(priority, elapsedMs(arrival));
                } catch (TimeoutException e) {
                    if (offer == null) {
                        throw e;
                    }
                }
                position = positionOf(waiter);
                if (position < 0) {
                    return new Admitted(priority, elapsedMs(arrival)); // granted as the bound passed
                }
                etaMs = eta(position, properties.capacity());
                lateOffers.incrementAndGet();
            }
            // offered: keep the place while the client decides; KEEP extends the wait, FAST / DEFER leave
            CompletableFuture<WaitOffer.Choice> choice = offer.make(position + 1, etaMs);
            long limit = offer.undecidedWait(maxWait).toNanos();
            while (true) {
                long remaining = limit - (clock.getAsLong() - arrival);
                if (choice == null) {
                    waiter.granted.get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
                    return new Admitted(priority, elapsedMs(arrival));
                }
                CompletableFuture.anyOf(waiter.granted, choice).get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
                if (waiter.granted.isDone()) {
                    return new Admitted(priority, elapsedMs(arrival));
                }
                WaitOffer.Choice chosen = choice.getNow(WaitOffer.Choice.KEEP);
                choice = null;
                if (chosen != WaitOffer.Choice.KEEP) {
                    return leave(waiter, arrival, Reason.WITHDRAWN);
                }
                limit = offer.keptWait(maxWait).toNanos();
            }
        } catch (TimeoutException e) {
            return leave(waiter, arrival, Reason.DEADLINE_PASSED);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return leave(waiter, arrival, Reason.INTERRUPTED);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Leaves the queue; if a slot was granted meanwhile, the request keeps it (or gives it back if interrupted). */
    private Ticket leave(Waiter waiter, long arrival, Reason reason) {
        boolean removed;
        lock.lock();
        try {
            removed = queue.remove(waiter);
            if (removed) {
                waiting.merge(waiter.priority, -1, Integer::sum);
            }
        } finally {
            lock.unlock();
        }
        if (removed) {
            if (waiter.clusterScore != ClusterOrder.UNKNOWN) {
                forget(waiter.seq);
            }
            return new Declined(reason, 0, elapsedMs(arrival));
        }
        Admitted admitted = new Admitted(waiter.priority, elapsedMs(arrival));
        if (reason == Reason.INTERRUPTED) {
            admitted.close();
            return new Declined(reason, 0, elapsedMs(arrival));
        }
        return admitted;
    }

    private void release(Priority priority, long serviceTimeNanos) {
        lock.lock();
        try {
            serviceNanos = serviceNanos + properties.smoothing() * (serviceTimeNanos - serviceNanos);
            inFlight--;
            inFlightByClass.merge(priority, -1, Integer::sum);
            if (pump != null) {
                wake.signalAll();                 // the pump asks the cluster before giving the slot away
                return;
            }
            while (inFlight < properties.capacity() && !queue.isEmpty()) {
                Waiter next = nextWaiter();
                queue.remove(next);
                waiting.merge(next.priority, -1, Integer::sum);
                grant(next.priority);
                next.granted.complete(Boolean.TRUE);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The earliest waiter of a class below its reserved share, else the earliest waiter. */
    private Waiter nextWaiter() {
        Waiter head = queue.peek();
        for (Priority priority : Priority.values()) {
            if (inFlightByClass.get(priority) < reserved.get(priority) && waiting.get(priority) > 0
                    && head.priority != priority) {
                Waiter best = null;
                for (Waiter candidate : queue) {
                    if (candidate.priority == priority && (best == null || candidate.before(best))) {
                        best = candidate;
                    }
                }
                return best;
            }
        }
        return head;
    }

    /** Tells the cluster a waiter left (never under the lock: it is a Redis round trip). */
    private void forget(long id) {
        cluster.leave(Long.toString(id));
    }

    // --- the cluster pump ----------------------------------------------------------------------

    private void pumpLoop() {
        long beatNanos = 0;
        int published = -1;
        while (running) {
            try {
                boolean waiters;
                int inFlightNow;
                lock.lock();
                try {
                    // with waiters, ask the cluster again every poll interval; idle, wake for releases and beats
                    wake.await(queue.isEmpty() ? cluster.beatInterval().toNanos() : cluster.pollInterval().toNanos(),
                        TimeUnit.NANOSECONDS);
                    waiters = !queue.isEmpty();
                    inFlightNow = inFlight;
                } finally {
                    lock.unlock();
                }
                if (waiters) {
                    pumpOnce();
                    published = -1;
                } else if (inFlightNow != published || System.nanoTime() - beatNanos >= cluster.beatInterval().toNanos()) {
                    // a freed slot is published at once, so other instances can use it at their next poll
                    published = beat();
                    beatNanos = System.nanoTime();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // never let the pump die: a failed round is retried at the next poll
            }
        }
    }

    private int beat() {
        decisions.lock();
        try {
            int inFlightNow = inFlight();
            cluster.beat(inFlightNow);
            return inFlightNow;
        } finally {
            decisions.unlock();
        }
    }

    /** Gives free local slots to local waiters while the cluster agrees. */
    private void pumpOnce() {
        while (running && pumpOne()) {
            // again: there may be more room
        }
    }

    private boolean pumpOne() {
        decisions.lock();
        try {
            Waiter next;
            long minScore = Long.MAX_VALUE;
            int inFlightNow;
            lock.lock();
            try {
                if (queue.isEmpty() || inFlight >= properties.capacity()) {
                    inFlightNow = inFlight;
                    next = null;
                } else {
                    next = nextWaiter();
                    for (Waiter w : queue) {
                        if (w.clusterScore != ClusterOrder.UNKNOWN) {
                            minScore = Math.min(minScore, w.clusterScore);
                        }
                    }
                    inFlightNow = inFlight;
                }
            } finally {
                lock.unlock();
            }
            if (next == null) {
                cluster.beat(inFlightNow);
                return false;
            }
            if (!cluster.tryGrant(Long.toString(next.seq), minScore == Long.MAX_VALUE ? ClusterOrder.UNKNOWN : minScore,
                    inFlightNow)) {
                return false;
            }
            lock.lock();
            try {
                if (queue.remove(next)) {
                    waiting.merge(next.priority, -1, Integer::sum);
                    grant(next.priority);
                    next.granted.complete(Boolean.TRUE);
                }                                   // else it left meanwhile: the next beat corrects the count
            } finally {
                lock.unlock();
            }
            return true;
        } finally {
            decisions.unlock();
        }
    }

    /** Stops the cluster pump (waiters still waiting time out as usual). */
    @Override
    public void close() {
        running = false;
        if (pump != null) {
            pump.interrupt();
        }
    }

    private void grant(Priority priority) {
        inFlight++;
        inFlightByClass.merge(priority, 1, Integer::sum);
    }

    /** Waiters ahead of this one now, or -1 when it is no longer queued (it was granted its slot). */
    private int positionOf(Waiter waiter) {
        lock.lock();
        try {
            if (!queue.contains(waiter)) {
                return -1;
            }
            int ahead = 0;
            for (Waiter other : queue) {
                if (other != waiter && other.before(waiter)) {
                    ahead++;
                }
            }
            return ahead;
        } finally {
            lock.unlock();
        }
    }

    /** Offers made to requests whose wait reached the threshold after an ETA at arrival that did not. */
    public long lateOffers() {
        return lateOffers.get();
    }

    private long eta(int position, int slots) {
        return (long) ((position + 1) * serviceNanos / slots / 1_000_000);
    }

    private long elapsedMs(long since) {
        return Math.max(0, (clock.getAsLong() - since) / 1_000_000);
    }

    public int queueLength() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    public int waiting(Priority priority) {
        lock.lock();
        try {
            return waiting.get(priority);
        } finally {
            lock.unlock();
        }
    }

    public int inFlight() {
        lock.lock();
        try {
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    public int capacity() {
        return properties.capacity();
    }

    /** The smoothed service time the ETAs use. */
    public Duration serviceTime() {
        return Duration.ofNanos((long) serviceNanos);
    }
}
