package io.sluice.api.session;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A session as its client may read it: every message, masked as stored. */
public record SessionView(UUID sessionId, String userId, Instant createdAt, Instant updatedAt, List<Message> messages) {

    public record Message(UUID requestId, String role, String content, String tier, String intent, String priority,
            boolean cached, Integer latencyMs, Instant createdAt) {
    }

    /** One line of a client's session list. */
    public record Summary(UUID sessionId, String userId, Instant createdAt, Instant updatedAt, int messages) {
    }
}
