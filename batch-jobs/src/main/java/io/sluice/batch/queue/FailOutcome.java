package io.sluice.batch.queue;

/** What a failed attempt led to. */
public enum FailOutcome {
    /** Back in the queue, due after the backoff. */
    RETRY,
    /** Attempts exhausted: dead-letter with the error. */
    DEAD,
    /** The lease was no longer ours (expired and re-claimed): nothing changed. */
    LOST_LEASE
}
