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
 * leaves nothing behind. A task belongs to the client that submitted it: only that client finds it by
 * its id or its idempotency key, and a conversation it names (summaries, deferred answers) must be that
 * client's own, else the submission is refused as not found (a stranger learns nothing). Free text in
 * payloads is stored masked ({@link PayloadMasker}).
 */
public class TaskService {

    private static final JsonMapper JSON = JsonMapper.shared();

    private final WorkQueue queue;
    private final int maxPayloadBytes;
    private final ConversationOwners owners;
    private final PayloadMasker masker;

    /** Whether a conversation belongs to a client. */
    @FunctionalInterface
    public interface ConversationOwners {
        boolean owns(long clientId, UUID conversationId);
    }

    public TaskService(WorkQueue queue, int maxPayloadBytes) {
        this(queue, maxPayloadBytes, (client, conversation) -> false, PayloadMasker.NONE);
    }

    public TaskService(WorkQueue queue, int maxPayloadBytes, ConversationOwners owners, PayloadMasker masker) {
        this.queue = queue;
        this.maxPayloadBytes = maxPayloadBytes;
        this.owners = owners;
        this.masker = masker;
    }

    public Enqueued submit(TaskSubmission submission) {
        return submit(submission, true);
    }

    /**
     * A submission the platform makes for a client about the client's own session (the chat's deferred
     * answers: the pipeline has just checked the session's owner, and the conversation is stored only
     * once the answer goes out). Validated like any other, without the conversation lookup.
     */
    public Enqueued submitForOwnSession(TaskSubmission submission) {
        return submit(submission, false);
    }

    private Enqueued submit(TaskSubmission submission, boolean checkOwnership) {
        TaskType type = TaskType.fromWire(submission.type()).orElseThrow(() -> new TaskValidationException(
            TaskValidationException.Kind.UNKNOWN_TYPE,
            "unknown task type; known types: " + TaskType.wireNames(), List.of()));
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
        if (checkOwnership) {
            checkOwnership(submission);
        }
        JsonNode stored = masked(submission.payload());
        int priority = submission.priority() == null ? 5 : submission.priority();
        NewWorkItem item = new NewWorkItem(WorkQueue.DEFAULT_QUEUE, type.wire(), priority, JSON.writeValueAsString(stored),
            blankToNull(submission.idempotencyKey()), 0, submission.clientId());
        Enqueued enqueued = queue.enqueue(item);
        if (!enqueued.created() && !sameTask(enqueued.item(), type, stored)) {
            throw new TaskValidationException(TaskValidationException.Kind.IDEMPOTENCY_CONFLICT,
                "this idempotency key was already used for a different task", List.of());
        }
        return enqueued;
    }

    /** Any task by its id (internal callers: jobs, the console). */
    public Optional<WorkItem> find(UUID id) {
        return queue.find(id);
    }

    /** The task with this id if it belongs to {@code clientId} (null = internal tasks only). */
    public Optional<WorkItem> find(UUID id, Long clientId) {
        return queue.find(id, clientId);
    }

    /** A client may only name its own conversations. */
    private void checkOwnership(TaskSubmission submission) {
        if (submission.clientId() == null) {
            return;
        }
        JsonNode conversation = submission.payload().get("conversationId");
        if (conversation != null && conversation.isString()
                && !owners.owns(submission.clientId(), UUID.fromString(conversation.asString()))) {
            throw new TaskValidationException(TaskValidationException.Kind.NOT_FOUND,
                "no such conversation for this client", List.of());
        }
    }

    /** The payload with its free text masked (ids, numbers and the locale are kept as they are). */
    private JsonNode masked(JsonNode payload) {
        if (!(payload instanceof tools.jackson.databind.node.ObjectNode object)) {
            return payload;
        }
        tools.jackson.databind.node.ObjectNode copy = object.deepCopy();
        List<String> fields = new java.util.ArrayList<>();
        copy.propertyNames().forEach(fields::add);
        for (String field : fields) {
            JsonNode value = copy.get(field);
            if (value.isString() && !field.equals("conversationId") && !field.equals("locale")) {
                copy.put(field, masker.mask(value.asString()));
            }
        }
        return copy;
    }

    private static boolean sameTask(WorkItem existing, TaskType type, JsonNode payload) {
        return existing.type().equals(type.wire()) && JSON.readTree(existing.payload()).equals(payload);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
