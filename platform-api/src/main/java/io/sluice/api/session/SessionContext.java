package io.sluice.api.session;

import java.util.List;
import java.util.UUID;

/**
 * The session a message belongs to.
 *
 * @param id          the session id (new or continued)
 * @param continued   false when a new session was started (none asked for, unknown, or someone else's)
 * @param recentTurns the last turns, oldest first (may be fewer than kept if storage was unavailable)
 * @param facts       the session's key facts, oldest first (its memory beyond the last turns)
 */
public record SessionContext(UUID id, boolean continued, List<Turn> recentTurns, List<SessionFact> facts) {

    public SessionContext {
        recentTurns = List.copyOf(recentTurns);
        facts = facts == null ? List.of() : List.copyOf(facts);
    }

    public SessionContext(UUID id, boolean continued, List<Turn> recentTurns) {
        this(id, continued, recentTurns, List.of());
    }

    public static SessionContext fresh() {
        return new SessionContext(UUID.randomUUID(), false, List.of());
    }
}
