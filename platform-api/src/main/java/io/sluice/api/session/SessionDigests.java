package io.sluice.api.session;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A compact digest of the sessions this instance served lately: the owner, the last turns (each cut to
 * {@code digestChars}) and the key facts, in memory, least recently used evicted beyond
 * {@code digestSessions}. While Redis is down a session continues from here without a database read;
 * one this instance never saw (or evicted) is read from PostgreSQL. A few hundred bytes per turn, so
 * the default (2,000 sessions × 12 turns × 200 chars) stays under ~10 MB.
 */
final class SessionDigests {

    private record Digest(String owner, Deque<Turn> turns, List<SessionFact> facts) {
    }

    private final SessionProperties properties;
    private final Map<UUID, Digest> digests;

    SessionDigests(SessionProperties properties) {
        this.properties = properties;
        this.digests = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<UUID, Digest> eldest) {
                return size() > properties.digestSessions();
            }
        };
    }

    /** The digest's view of a session, if this instance has one for this owner. */
    synchronized Optional<SessionContext> read(UUID sessionId, String owner) {
        Digest digest = digests.get(sessionId);
        if (digest == null || !digest.owner().equals(owner)) {
            return Optional.empty();
        }
        return Optional.of(new SessionContext(sessionId, true, List.copyOf(digest.turns()), digest.facts()));
    }

    /** Replaces the digest with what the store read (Redis or PostgreSQL). */
    synchronized void put(UUID sessionId, String owner, List<Turn> turns, List<SessionFact> facts) {
        if (properties.digestSessions() == 0) {
            return;
        }
        Deque<Turn> compact = new ArrayDeque<>();
        for (Turn turn : turns) {
            add(compact, turn);
        }
        digests.put(sessionId, new Digest(owner, compact, bounded(facts)));
    }

    synchronized void append(UUID sessionId, String owner, List<Turn> turns, List<SessionFact> facts) {
        if (properties.digestSessions() == 0) {
            return;
        }
        Digest digest = digests.get(sessionId);
        if (digest == null || !digest.owner().equals(owner)) {
            digest = new Digest(owner, new ArrayDeque<>(), List.of());
        }
        for (Turn turn : turns) {
            add(digest.turns(), turn);
        }
        List<SessionFact> merged = new ArrayList<>(digest.facts());
        merged.addAll(facts);
        digests.put(sessionId, new Digest(owner, digest.turns(), bounded(merged)));
    }

    synchronized int size() {
        return digests.size();
    }

    synchronized void clear() {
        digests.clear();
    }

    private void add(Deque<Turn> turns, Turn turn) {
        String text = turn.content();
        if (text != null && text.length() > properties.digestChars()) {
            text = text.substring(0, properties.digestChars()) + "…";
        }
        turns.addLast(new Turn(turn.role(), text, turn.atEpochMs()));
        while (turns.size() > properties.maxTurns()) {
            turns.removeFirst();
        }
    }

    private List<SessionFact> bounded(List<SessionFact> facts) {
        return List.copyOf(facts.subList(Math.max(0, facts.size() - properties.maxFacts()), facts.size()));
    }
}
