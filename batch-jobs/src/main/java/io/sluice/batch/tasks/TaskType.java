package io.sluice.batch.tasks;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The kinds of queued work the task API accepts; {@link #wire()} is the name clients send. */
public enum TaskType {
    /** payload: {@code conversationId} (UUID, required), {@code maxWords} (10..1000, optional). */
    SUMMARIZE_CONVERSATION("summarize_conversation"),
    /** payload: {@code documentId} (positive integer, required), {@code maxWords} (10..1000, optional). */
    SUMMARIZE_DOCUMENT("summarize_document"),
    /** payload: {@code question} (1..4000 chars, required), {@code conversationId} (UUID, optional), {@code locale} (optional). */
    DEFERRED_ANSWER("deferred_answer");

    private final String wire;

    TaskType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<TaskType> fromWire(String name) {
        return Arrays.stream(values()).filter(t -> t.wire.equals(name)).findFirst();
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(TaskType::wire).toList();
    }
}
