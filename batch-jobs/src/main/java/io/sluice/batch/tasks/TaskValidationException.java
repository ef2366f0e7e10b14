package io.sluice.batch.tasks;

import java.util.List;

/** A task submission was refused before anything was enqueued. */
public class TaskValidationException extends RuntimeException {

    public enum Kind { UNKNOWN_TYPE, INVALID_PAYLOAD, PAYLOAD_TOO_LARGE, IDEMPOTENCY_CONFLICT }

    private final Kind kind;
    private final List<String> errors;

    public TaskValidationException(Kind kind, String message, List<String> errors) {
        super(message);
        this.kind = kind;
        this.errors = List.copyOf(errors);
    }

    public Kind kind() {
        return kind;
    }

    public List<String> errors() {
        return errors;
    }
}
