package io.sluice.semantics.model;

import java.time.Instant;

/**
 * One stored version of a learned model, without its payload.
 *
 * @param kind       what it decides ({@code intent}, {@code pair-verifier}, ...)
 * @param version    increasing per kind
 * @param evaluation the metrics it got on its held-out split, as JSON (null when not evaluated)
 * @param current    whether the cluster answers with it now
 */
public record StoredModel(String kind, long version, String evaluation, String note, String createdBy,
        Instant createdAt, boolean current) {
}
