package io.sluice.batch.api;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.sluice.batch.queue.WorkItem;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A task as the API shows it. {@code error} is the last error (the reason when DEAD). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskView(UUID id, String type, String state, int priority, int progress, int attempts, int maxAttempts,
        JsonNode result, String error, Instant nextAttemptAt, Instant createdAt, Instant updatedAt, Instant completedAt,
        String statusUrl) {

    static TaskView of(WorkItem item) {
        JsonNode result = item.result() == null ? null : JsonMapper.shared().readTree(item.result());
        Instant next = "QUEUED".equals(item.state().name()) ? item.nextAttemptAt() : null;
        return new TaskView(item.ticket(), item.type(), item.state().name(), item.priority(), item.progress(),
            item.attempts(), item.maxAttempts(), result, item.lastError(), next, item.createdAt(), item.updatedAt(),
            item.completedAt(), TaskController.statusPath(item.ticket()));
    }
}
