package io.sluice.api.session;

/** One message of a session as kept for context (content already masked). */
public record Turn(String role, String content, long atEpochMs) {
}
