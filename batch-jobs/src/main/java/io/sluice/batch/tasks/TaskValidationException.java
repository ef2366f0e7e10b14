package io.sluice.batch.tasks;

import java.util.List;

/** A task submission was refused before anything was enqueued. */
public class TaskValidationException extends RuntimeException {

    /** NOT_FOUND: the payload names something the submitting client does not own (or that does not exist). */
    public enum Kind { UNKNOWN_TYPE, INVALID_PAYLOAD, PAYLOAD_TOO_LARGE, IDEMPOTENCY_CONFLICT, NOT_FOUND }

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
