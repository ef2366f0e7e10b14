package io.sluice.api.admission;

import java.time.Duration;

/**
 * The cluster's say in {@link PriorityAdmission}'s order: before an instance gives a slot to one of its
 * waiters it asks whether the cluster has room and no more urgent waiter elsewhere. The local scheduler
 * still chooses <em>which</em> of its own waiters goes (classes, aging, reserved shares); this decides
 * <em>whether</em> the instance may let one go now. Implementations never fail closed: when they cannot
 * tell (Redis down) they answer yes, and the instance runs on its local order alone.
 */
public interface ClusterOrder {

    /** No cluster: every instance orders only its own waiters (the behaviour without Redis). */
    ClusterOrder LOCAL = new ClusterOrder() {
        @Override
        public boolean local() {
            return true;
        }

        @Override
        public Arrival arrive(String id, long offsetMs, long ttlMs, int localInFlight, boolean tryNow) {
            return new Arrival(tryNow, UNKNOWN);
        }

        @Override
        public boolean tryGrant(String id, long minScore, int localInFlight) {
            return true;
        }

        @Override
        public void leave(String id) {
        }

        @Override
        public void beat(int localInFlight) {
        }

        @Override
        public Duration pollInterval() {
            return Duration.ofSeconds(1);
        }
    };

    /** A waiter's cluster score when it could not be announced. */
    long UNKNOWN = Long.MIN_VALUE;

    /**
     * @param admitted the request may take a slot now (it was not left announced)
     * @param score    its cluster-wide virtual deadline if it stays announced, else {@link #UNKNOWN}
     */
    record Arrival(boolean admitted, long score) {
    }

    /** True for {@link #LOCAL}: the admission then grants freed slots directly, as before. */
    boolean local();

    /**
     * Announces a new waiter (virtual deadline = cluster time + {@code offsetMs}, forgotten after
     * {@code ttlMs}, its bounded wait) and, if {@code tryNow}, admits it at once when the cluster has a
     * free slot and no more urgent waiter.
     */
    Arrival arrive(String id, long offsetMs, long ttlMs, int localInFlight, boolean tryNow);

    /**
     * May this instance give a slot to its waiter {@code id} now? Yes when the waiters of other
     * instances that are more urgent than this instance's most urgent one ({@code minScore}) are fewer
     * than the cluster's free slots. A yes takes the slot in the cluster's count and forgets {@code id}.
     */
    boolean tryGrant(String id, long minScore, int localInFlight);

    /** Forgets a waiter that left (deadline passed, interrupted, declined). */
    void leave(String id);

    /** Publishes this instance's answers in flight (a heartbeat: a silent instance stops counting). */
    void beat(int localInFlight);

    /** How often an instance with waiters asks again (a slot freed elsewhere is seen within this). */
    Duration pollInterval();

    /** How often an idle instance publishes its answers in flight (well within the cluster's lease). */
    default Duration beatInterval() {
        return Duration.ofSeconds(1);
    }
}
