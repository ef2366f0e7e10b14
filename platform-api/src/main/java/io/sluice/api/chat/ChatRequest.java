package io.sluice.api.chat;

import java.util.UUID;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * One customer message.
 *
 * @param userId    the customer, as the calling client knows them (at most {@value #MAX_USER_ID_CHARS}
 *                  characters, no control characters; personal numbers in it are masked before it is used)
 * @param sessionId an earlier answer's session; absent, unknown or someone else's starts a new one
 * @param message   the text, at most {@value #MAX_MESSAGE_CHARS} characters
 * @param acceptDeferred true: when the platform cannot answer with the LLM now (level, lane B shed,
 *                  admission deadline), queue the question and return a ticket (tier F0) instead of F1
 */
public record ChatRequest(
    @NotBlank(message = "userId is required")
    @Size(max = ChatRequest.MAX_USER_ID_CHARS, message = "userId must be at most {max} characters")
    @Pattern(regexp = "[^\\p{Cntrl}\\u2028\\u2029]*", message = "userId must not contain control characters") String userId,
    UUID sessionId,
    @NotBlank(message = "message must not be empty")
    @Size(max = ChatRequest.MAX_MESSAGE_CHARS, message = "message must be at most {max} characters") String message,
    Boolean acceptDeferred) {

    public ChatRequest(String userId, UUID sessionId, String message) {
        this(userId, sessionId, message, null);
    }

    public boolean defersAccepted() {
        return Boolean.TRUE.equals(acceptDeferred);
    }

    public static final int MAX_MESSAGE_CHARS = 4000;
    /** Longest userId (and OpenAI {@code user}): it keys buckets and sessions. */
    public static final int MAX_USER_ID_CHARS = 128;

    /** The same request for another (for instance masked) userId. */
    public ChatRequest withUserId(String id) {
        return new ChatRequest(id, sessionId, message, acceptDeferred);
    }
}
