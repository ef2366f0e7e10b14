package io.sluice.governance.degradation;

import java.time.Instant;

/**
 * The cluster's degradation state as this instance sees it.
 *
 * @param effective the level in force (the pin if any, else the worst live automatic proposal)
 * @param automatic what the measured signals call for, cluster-wide
 * @param pinned    the operator's pin, or null
 * @param reason    why the effective level is what it is
 * @param since     when this instance saw it change last
 */
public record DegradationState(DegradationLevel effective, DegradationLevel automatic, Pin pinned, String reason,
        Instant since) {

    /** An operator's pin. */
    public record Pin(DegradationLevel level, String actor, String reason) {
    }
}
