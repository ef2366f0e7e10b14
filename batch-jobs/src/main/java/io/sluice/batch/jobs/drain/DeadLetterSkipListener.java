package io.sluice.batch.jobs.drain;

import io.sluice.batch.queue.ClaimedItem;
import io.sluice.batch.queue.WorkQueue;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.listener.SkipListener;

/** A skipped (poison) item goes to dead-letter with the reason it was skipped. */
public class DeadLetterSkipListener implements SkipListener<ClaimedItem, DrainResult> {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterSkipListener.class);

    private final WorkQueue queue;

    public DeadLetterSkipListener(WorkQueue queue) {
        this.queue = queue;
    }

    @Override
    public void onSkipInProcess(ClaimedItem item, Throwable t) {
        String reason = "poison item: " + t.getMessage();
        log.warn("work item {} ({}) skipped to dead-letter: {}", item.id(), item.type(), t.getMessage());
        queue.deadLetter(item, reason);
    }
}
