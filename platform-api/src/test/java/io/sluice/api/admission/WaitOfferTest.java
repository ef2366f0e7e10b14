package io.sluice.api.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.sluice.api.intent.Priority;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fast-mode offer inside admission (real clock, one slot held): a request whose ETA reaches the offer's
 * threshold queues even past its own bound and is asked; FAST / DEFER leave the queue at once, KEEP waits
 * beyond the bound, silence keeps the place for the undecided wait only.
 */
class WaitOfferTest {

    static final Duration BOUND = Duration.ofMillis(200);

    final ExecutorService threads = Executors.newCachedThreadPool();
    final AtomicInteger offersMade = new AtomicInteger();
    final CompletableFuture<WaitOffer.Choice> choice = new CompletableFuture<>();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    /** ETAs here are 1 s a position (service time 1 s, capacity 1): always past the 200 ms bound. */
    PriorityAdmission admission() {
        return new PriorityAdmission(new AdmissionProperties(1, null, 0.5, Duration.ofSeconds(1), null, null,
            Duration.ofSeconds(1), 0.2));
    }

    WaitOffer offer(long thresholdMs, Duration undecided, Duration kept) {
        return new WaitOffer() {
            @Override
            public long thresholdMs(Duration maxWait) {
                return thresholdMs;
            }

            @Override
            public CompletableFuture<Choice> make(int position, long etaMs) {
                offersMade.incrementAndGet();
                return choice;
            }

            @Override
            public Duration undecidedWait(Duration maxWait) {
                return undecided;
            }

            @Override
            public Duration keptWait(Duration maxWait) {
                return kept;
            }
        };
    }

    Future<PriorityAdmission.Ticket> queue(PriorityAdmission admission, WaitOffer offer) {
        return queueFor(admission, BOUND, offer);
    }

    /** A FAST choice: the request left the queue withdrawn, and once the holder is done no slot is held. */
    static void assertWithdrawnLeavingNothingHeld(PriorityAdmission admission, Future<PriorityAdmission.Ticket> waiting,
            PriorityAdmission.Ticket holder) throws Exception {
        assertThat(waiting.get()).isInstanceOfSatisfying(PriorityAdmission.Declined.class,
            d -> assertThat(d.reason()).isEqualTo(PriorityAdmission.Reason.WITHDRAWN));
        assertThat(admission.queueLength()).isZero();
        holder.close();
        assertThat(admission.inFlight()).isZero();
    }

    /** One slot, service time 50 ms: an ETA at arrival far below any threshold used here. */
    static PriorityAdmission admissionWithShortEtas() {
        return new PriorityAdmission(new AdmissionProperties(1, null, 0.5, Duration.ofSeconds(1), null, null,
            Duration.ofMillis(50), 0.2));
    }

    Future<PriorityAdmission.Ticket> queueFor(PriorityAdmission admission, Duration maxWait, WaitOffer offer) {
        Future<PriorityAdmission.Ticket> future = threads.submit(
            () -> admission.admit(Priority.B, false, maxWait, PriorityAdmission.QueueListener.NONE, offer));
        await().until(() -> admission.queueLength() == 1);
        return future;
    }

    @Test
    void withoutAnOfferALongEtaIsDeclinedAtOnceAsBefore() {
        PriorityAdmission admission = admission();
        PriorityAdmission.Ticket holder = admission.admit(Priority.B, false, BOUND, PriorityAdmission.QueueListener.NONE);

        PriorityAdmission.Ticket ticket = admission.admit(Priority.B, false, BOUND, PriorityAdmission.QueueListener.NONE,
            offer(Long.MAX_VALUE, BOUND, BOUND));   // threshold never reached

        assertThat(ticket).isInstanceOfSatisfying(PriorityAdmission.Declined.class,
            d -> assertThat(d.reason()).isEqualTo(PriorityAdmission.Reason.WOULD_MISS_DEADLINE));
        assertThat(offersMade).hasValue(0);
        holder.close();
    }

    @Test
    void aFastChoiceLeavesTheQueueAtOnce() throws Exception {
        PriorityAdmission admission = admission();
        PriorityAdmission.Ticket holder = admission.admit(Priority.B, false, BOUND, PriorityAdmission.QueueListener.NONE);
        Future<PriorityAdmission.Ticket> waiting = queue(admission, offer(0, Duration.ofMinutes(1), Duration.ofMinutes(1)));
        assertThat(offersMade).hasValue(1);

        choice.complete(WaitOffer.Choice.FAST);

        assertWithdrawnLeavingNothingHeld(admission, waiting, holder);
    }

    @Test
    void keepingThePlaceWaitsPastTheBoundAndIsAdmittedWhenTheSlotFrees() throws Exception {
        PriorityAdmission admission = admission();
        PriorityAdmission.Ticket holder = admission.admit(Priority.B, false, BOUND, PriorityAdmission.QueueListener.NONE);
        choice.complete(WaitOffer.Choice.KEEP);   // answered as soon as asked (the undecided wait is only the bound)
        Future<PriorityAdmission.Ticket> waiting = queue(admission, offer(0, BOUND, Duration.ofMinutes(1)));
        await().during(Duration.ofMillis(3 * BOUND.toMillis())).atMost(Duration.ofSeconds(5))
            .until(() -> !waiting.isDone());                     // still queued three bounds later
        holder.close();

        PriorityAdmission.Ticket ticket = waiting.get();
        assertThat(ticket).isInstanceOf(PriorityAdmission.Admitted.class);
        assertThat(ticket.waitedMs()).isGreaterThan(BOUND.toMillis());
        ticket.close();
    }

    @Test
    void anUndecidedClientKeepsItsPlaceForTheUndecidedWaitOnly() throws Exception {
        PriorityAdmission admission = admission();
        PriorityAdmission.Ticket holder = admission.admit(Priority.B, false, BOUND, PriorityAdmission.QueueListener.NONE);
        Future<PriorityAdmission.Ticket> waiting = queue(admission, offer(0, Duration.ofMillis(400), Duration.ofMinutes(1)));

        PriorityAdmission.Ticket ticket = waiting.get();

        assertThat(ticket).isInstanceOfSatisfying(PriorityAdmission.Declined.class,
            d -> assertThat(d.reason()).isEqualTo(PriorityAdmission.Reason.DEADLINE_PASSED));
        assertThat(ticket.waitedMs()).isGreaterThanOrEqualTo(400);
        assertThat(admission.queueLength()).isZero();
        holder.close();
    }

    @Test
    void aRequestStillQueuedWhenItsWaitReachesTheThresholdIsAskedThenThoughItsEtaAtArrivalWasShort() throws Exception {
        PriorityAdmission admission = admissionWithShortEtas();  // ETA at arrival 50 ms, threshold 1 s
        PriorityAdmission.Ticket holder = admission.admit(Priority.B, false, BOUND, PriorityAdmission.QueueListener.NONE);
        Future<PriorityAdmission.Ticket> waiting = queueFor(admission, Duration.ofSeconds(5),
            offer(1_000, Duration.ofMinutes(1), Duration.ofMinutes(1)));
        assertThat(offersMade).hasValue(0);                      // not asked at arrival

        await().atMost(Duration.ofSeconds(5)).until(() -> offersMade.get() == 1);
        assertThat(admission.lateOffers()).isEqualTo(1);
        assertThat(waiting.isDone()).isFalse();                  // still in its place while the client decides
        choice.complete(WaitOffer.Choice.FAST);

        assertWithdrawnLeavingNothingHeld(admission, waiting, holder);
    }

    @Test
    void aRequestGrantedBeforeItsWaitReachesTheThresholdIsNeverAsked() throws Exception {
        PriorityAdmission admission = admissionWithShortEtas();
        PriorityAdmission.Ticket holder = admission.admit(Priority.B, false, BOUND, PriorityAdmission.QueueListener.NONE);
        Future<PriorityAdmission.Ticket> waiting = queueFor(admission, Duration.ofSeconds(5),
            offer(60_000, Duration.ofMinutes(1), Duration.ofMinutes(1)));
        holder.close();

        PriorityAdmission.Ticket ticket = waiting.get();
        assertThat(ticket).isInstanceOf(PriorityAdmission.Admitted.class);
        assertThat(offersMade).hasValue(0);
        assertThat(admission.lateOffers()).isZero();
        ticket.close();
    }
}
