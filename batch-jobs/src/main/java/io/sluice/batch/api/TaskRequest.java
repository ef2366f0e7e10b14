package io.sluice.batch.api;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import tools.jackson.databind.JsonNode;

/**
 * Body of {@code POST /api/v1/tasks}.
 *
 * @param idempotencyKey optional; the {@code Idempotency-Key} header works too
 * @param priority       optional, 0 (first) .. 9 (last), default 5
 */
public record TaskRequest(
        @NotBlank(message = "is required") @Size(max = 50, message = "must be at most 50 characters") String type,
        @NotNull(message = "is required") JsonNode payload,
        @Size(max = 200, message = "must be at most 200 characters") String idempotencyKey,
        @Min(value = 0, message = "must be between 0 and 9") @Max(value = 9, message = "must be between 0 and 9") Integer priority) {
}
