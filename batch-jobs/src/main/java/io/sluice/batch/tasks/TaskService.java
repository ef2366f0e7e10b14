package io.sluice.batch.tasks;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.sluice.batch.queue.Enqueued;
import io.sluice.batch.queue.NewWorkItem;
import io.sluice.batch.queue.WorkItem;
import io.sluice.batch.queue.WorkQueue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Validates and enqueues tasks. Everything is checked before the insert, so a refused submission
 * leaves nothing behind.
 */
public class TaskService {

    private static final JsonMapper JSON = JsonMapper.shared();

    private final WorkQueue queue;
    private final int maxPayloadBytes;

    public TaskService(WorkQueue queue, int maxPayloadBytes) {
        this.queue = queue;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    public Enqueued submit(TaskSubmission submission) {
        TaskType type = TaskType.fromWire(submission.type()).orElseThrow(() -> new TaskValidationException(
            TaskValidationException.Kind.UNKNOWN_TYPE,
            "unknown task type '" + submission.type() + "'; known types: " + TaskType.wireNames(), List.of()));
        String payload = submission.payload() == null ? null : JSON.writeValueAsString(submission.payload());
        if (payload != null && payload.getBytes(StandardCharsets.UTF_8).length > maxPayloadBytes) {
            throw new TaskValidationException(TaskValidationException.Kind.PAYLOAD_TOO_LARGE,
                "payload is larger than " + maxPayloadBytes + " bytes", List.of());
        }
        List<String> errors = TaskPayloads.validate(type, submission.payload());
        if (!errors.isEmpty()) {
            throw new TaskValidationException(TaskValidationException.Kind.INVALID_PAYLOAD,
                String.join("; ", errors), errors);
        }
        int priority = submission.priority() == null ? 5 : submission.priority();
        NewWorkItem item = new NewWorkItem(WorkQueue.DEFAULT_QUEUE, type.wire(), priority, payload,
            blankToNull(submission.idempotencyKey()), 0);
        Enqueued enqueued = queue.enqueue(item);
        if (!enqueued.created() && !sameTask(enqueued.item(), type, submission.payload())) {
            throw new TaskValidationException(TaskValidationException.Kind.IDEMPOTENCY_CONFLICT,
                "idempotency key '" + submission.idempotencyKey() + "' was already used for a different task", List.of());
        }
        return enqueued;
    }

    public Optional<WorkItem> find(UUID id) {
        return queue.find(id);
    }

    private static boolean sameTask(WorkItem existing, TaskType type, JsonNode payload) {
        return existing.type().equals(type.wire()) && JSON.readTree(existing.payload()).equals(payload);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
