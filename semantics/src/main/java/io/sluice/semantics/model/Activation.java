package io.sluice.semantics.model;

import java.time.Instant;

/**
 * One entry of a kind's activation history (what was put in service, by whom, why).
 *
 * @param version the version put in service; null when a rollback put the built-in default back
 */
public record Activation(String kind, Long version, Action action, String actor, String reason, Instant at) {

    public enum Action {
        /** activated because it was not worse than the active version on the same split */
        ACTIVATE,
        /** activated by an operator although it was worse, or without comparison */
        FORCE,
        /** the previous version put back */
        ROLLBACK
    }
}
