package io.sluice.api.chat;

import java.util.UUID;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * One customer message.
 *
 * @param userId    the customer, as the calling client knows them
 * @param sessionId an earlier answer's session; absent, unknown or someone else's starts a new one
 * @param message   the text, at most {@value #MAX_MESSAGE_CHARS} characters
 */
public record ChatRequest(
    @NotBlank(message = "userId is required") @Size(max = 200, message = "userId must be at most 200 characters") String userId,
    UUID sessionId,
    @NotBlank(message = "message must not be empty")
    @Size(max = ChatRequest.MAX_MESSAGE_CHARS, message = "message must be at most {max} characters") String message) {

    public static final int MAX_MESSAGE_CHARS = 4000;
}
