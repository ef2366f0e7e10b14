package io.sluice.batch.queue;

/** Life of a work item: QUEUED -> RUNNING -> DONE, or back to QUEUED (retry), or DEAD (dead-letter). */
public enum WorkState {
    QUEUED, RUNNING, DONE, DEAD
}
