package io.sluice.api.session;

import java.util.List;
import java.util.UUID;

/**
 * The session a message belongs to.
 *
 * @param id          the session id (new or continued)
 * @param continued   false when a new session was started (none asked for, unknown, or someone else's)
 * @param recentTurns the last turns, oldest first (may be fewer than kept if storage was unavailable)
 */
public record SessionContext(UUID id, boolean continued, List<Turn> recentTurns) {

    public SessionContext {
        recentTurns = List.copyOf(recentTurns);
    }

    public static SessionContext fresh() {
        return new SessionContext(UUID.randomUUID(), false, List.of());
    }
}
