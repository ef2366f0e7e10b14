package io.sluice.batch.jobs;

/** A launch, stop or restart that cannot be done: unknown job or execution, wrong state, bad parameter. */
public class JobControlException extends RuntimeException {

    public enum Kind { NOT_FOUND, CONFLICT, INVALID }

    private final Kind kind;

    public JobControlException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
