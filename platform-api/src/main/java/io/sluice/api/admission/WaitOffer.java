package io.sluice.api.admission;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The fast-mode offer a queued request may get ({@link PriorityAdmission#admit(io.sluice.api.intent.Priority,
 * boolean, Duration, PriorityAdmission.QueueListener, WaitOffer)}): when its predicted wait reaches
 * {@link #thresholdMs}, it queues even if the ETA misses its deadline, and the client is asked — a fast
 * answer now, keep its place, or a deferred answer. Until it answers it keeps its place for
 * {@link #undecidedWait}; one that keeps its place waits up to {@link #keptWait}.
 */
public interface WaitOffer {

    /** The client's answer to the offer. */
    enum Choice { FAST, KEEP, DEFER }

    /** The predicted wait (ms) from which the offer is made, for a request whose own bound is {@code maxWait}. */
    long thresholdMs(Duration maxWait);

    /** Makes the offer (position, ETA); the future completes with the client's choice, or never. */
    CompletableFuture<Choice> make(int position, long etaMs);

    /** How long a request that has not answered keeps its place. */
    Duration undecidedWait(Duration maxWait);

    /** How long a request whose client chose to keep its place waits, from its arrival. */
    Duration keptWait(Duration maxWait);
}
