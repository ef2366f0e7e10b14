package io.sluice.batch.jobs.drain;

/**
 * An item no retry can fix (its conversation or document does not exist, its payload is unreadable):
 * the drain step skips it and the skip listener moves it to dead-letter with this message.
 */
public class PoisonItemException extends RuntimeException {

    public PoisonItemException(String message) {
        super(message);
    }
}
