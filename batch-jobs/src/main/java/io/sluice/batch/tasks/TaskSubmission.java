package io.sluice.batch.tasks;

import tools.jackson.databind.JsonNode;

/**
 * A task as a client submits it.
 *
 * @param priority null = 5; 0 is taken first, 9 last
 */
public record TaskSubmission(String type, JsonNode payload, String idempotencyKey, Integer priority) {
}
