package io.sluice.api.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import io.sluice.api.intent.Priority;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PriorityAdmissionTest {

    static final Duration LONG = Duration.ofMinutes(1);

    final AtomicLong nanos = new AtomicLong();
    final ExecutorService threads = Executors.newCachedThreadPool();
    final List<String> served = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    PriorityAdmission admission(int capacity) {
        return new PriorityAdmission(new AdmissionProperties(capacity, null, 0.5, Duration.ofSeconds(1), null,
            null, Duration.ofMillis(10), 0.2), nanos::get);
    }

    /** Queues a request on its own thread; once admitted it notes its name and frees the slot. */
    Future<PriorityAdmission.Ticket> queue(PriorityAdmission admission, String name, Priority priority, boolean vip) {
        int before = admission.queueLength();
        Future<PriorityAdmission.Ticket> future = threads.submit(() -> {
            PriorityAdmission.Ticket ticket = admission.admit(priority, vip, LONG, PriorityAdmission.QueueListener.NONE);
            served.add(name);
            ticket.close();
            return ticket;
        });
        await().until(() -> admission.queueLength() == before + 1);
        return future;
    }

    @Test
    void admitsAtOnceWhileThereIsRoom() {
        PriorityAdmission admission = admission(2);

        PriorityAdmission.Ticket first = admission.admit(Priority.B, false, LONG, PriorityAdmission.QueueListener.NONE);
        PriorityAdmission.Ticket second = admission.admit(Priority.B, false, LONG, PriorityAdmission.QueueListener.NONE);

        assertThat(first).isInstanceOf(PriorityAdmission.Admitted.class);
        assertThat(second.waitedMs()).isZero();
        assertThat(admission.inFlight()).isEqualTo(2);
        first.close();
        first.close();
        assertThat(admission.inFlight()).as("closing twice frees one slot").isEqualTo(1);
    }

    @Test
    void servesSBeforeABeforeBWhenTheyArriveTogether() {
        PriorityAdmission admission = admission(1);
        PriorityAdmission.Ticket holder = admission.admit(Priority.B, false, LONG, PriorityAdmission.QueueListener.NONE);
        queue(admission, "B", Priority.B, false);
        queue(admission, "A", Priority.A, false);
        queue(admission, "S", Priority.S, false);

        holder.close();

        await().until(() -> served.size() == 3);
        assertThat(served).containsExactly("S", "A", "B");
        assertThat(admission.inFlight()).isZero();
    }

    @Test
    void aWaitingBRequestAgesAheadOfNewerSRequests() {
        PriorityAdmission admission = admission(1);
        PriorityAdmission.Ticket holder = admission.admit(Priority.S, false, LONG, PriorityAdmission.QueueListener.NONE);
        queue(admission, "old B", Priority.B, false);          // turn at 0 + 3 s
        nanos.set(Duration.ofMillis(2_500).toNanos());
        queue(admission, "new S", Priority.S, false);          // turn at 2.5 + 1 s

        holder.close();

        await().until(() -> served.size() == 2);
        assertThat(served).containsExactly("old B", "new S");
    }

    @Test
    void aVipRequestGoesAheadOfAStandardOneOfItsClass() {
        PriorityAdmission admission = admission(1);
        PriorityAdmission.Ticket holder = admission.admit(Priority.A, false, LONG, PriorityAdmission.QueueListener.NONE);
        queue(admission, "standard A", Priority.A, false);
        queue(admission, "VIP A", Priority.A, true);

        holder.close();

        await().until(() -> served.size() == 2);
        assertThat(served).containsExactly("VIP A", "standard A");
    }

    @Test
    void aClassBelowItsReservedShareGetsTheNextSlotEvenBehindEarlierTurns() {
        PriorityAdmission admission = admission(4);          // B reserves floor(0.25 x 4) = 1 slot
        List<PriorityAdmission.Ticket> holders = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            holders.add(admission.admit(Priority.S, false, LONG, PriorityAdmission.QueueListener.NONE));
        }
        java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
        threads.submit(() -> {
            PriorityAdmission.Ticket ticket = admission.admit(Priority.B, false, LONG, PriorityAdmission.QueueListener.NONE);
            served.add("B");
            hold.await();                                    // keeps its slot: B is at its share now
            ticket.close();
            return null;
        });
        await().until(() -> admission.queueLength() == 1);
        queue(admission, "S1", Priority.S, false);
        queue(admission, "S2", Priority.S, false);
        queue(admission, "B2", Priority.B, false);

        holders.get(0).close();
        await().until(() -> served.size() == 1);
        assertThat(served).containsExactly("B");

        holders.get(1).close();
        await().until(() -> served.size() == 4);
        assertThat(served).as("B at its share: earliest turns again").containsExactly("B", "S1", "S2", "B2");
        hold.countDown();
        holders.subList(2, 4).forEach(PriorityAdmission.Ticket::close);
        await().until(() -> served.size() == 4 && admission.inFlight() == 0);
    }

    @Test
    void declinesAtOnceWhenTheEtaMissesTheDeadline() {
        PriorityAdmission admission = new PriorityAdmission(new AdmissionProperties(1, null, 0.5, Duration.ofSeconds(1),
            null, null, Duration.ofSeconds(2), 0.2), nanos::get);
        PriorityAdmission.Ticket holder = admission.admit(Priority.A, false, LONG, PriorityAdmission.QueueListener.NONE);

        PriorityAdmission.Ticket ticket = admission.admit(Priority.B, false, Duration.ofMillis(500),
            PriorityAdmission.QueueListener.NONE);

        assertThat(ticket).isInstanceOfSatisfying(PriorityAdmission.Declined.class, declined -> {
            assertThat(declined.reason()).isEqualTo(PriorityAdmission.Reason.WOULD_MISS_DEADLINE);
            assertThat(declined.etaMs()).isEqualTo(2_000);
        });
        assertThat(admission.queueLength()).isZero();
        holder.close();
    }

    @Test
    void leavesTheQueueWhenItsDeadlinePassesAndHoldsNothing() {
        PriorityAdmission admission = new PriorityAdmission(new AdmissionProperties(1, null, 0.5, Duration.ofSeconds(1),
            null, null, Duration.ofMillis(10), 0.2));
        PriorityAdmission.Ticket holder = admission.admit(Priority.A, false, LONG, PriorityAdmission.QueueListener.NONE);

        PriorityAdmission.Ticket ticket = admission.admit(Priority.S, false, Duration.ofMillis(50),
            PriorityAdmission.QueueListener.NONE);

        assertThat(ticket).isInstanceOfSatisfying(PriorityAdmission.Declined.class,
            declined -> assertThat(declined.reason()).isEqualTo(PriorityAdmission.Reason.DEADLINE_PASSED));
        assertThat(admission.queueLength()).isZero();
        holder.close();
        assertThat(admission.inFlight()).isZero();
    }

    @Test
    void tellsAQueuedRequestItsPositionAndEta() {
        PriorityAdmission admission = admission(1);
        PriorityAdmission.Ticket holder = admission.admit(Priority.A, false, LONG, PriorityAdmission.QueueListener.NONE);
        queue(admission, "first", Priority.A, false);
        List<long[]> told = new CopyOnWriteArrayList<>();

        threads.submit(() -> admission.admit(Priority.B, false, LONG, (position, eta) -> told.add(new long[] {position, eta}))
            .close());

        await().until(() -> told.size() == 1);
        assertThat(told.get(0)).containsExactly(2, 20);
        assertThat(admission.waiting(Priority.B)).isEqualTo(1);
        holder.close();
        await().until(() -> admission.inFlight() == 0 && admission.queueLength() == 0);
    }
}
