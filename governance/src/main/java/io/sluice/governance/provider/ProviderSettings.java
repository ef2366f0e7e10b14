package io.sluice.governance.provider;

import java.time.Duration;

/**
 * The limits and health rules of one provider, resolved from configuration.
 *
 * @param permits          calls in flight at this provider, cluster-wide (0 = only the lane permits bound it)
 * @param rpm              requests per minute, cluster-wide (0 = no limit)
 * @param tpm              tokens per window, cluster-wide (0 = no limit)
 * @param tpmWindow        the TPM window (1m)
 * @param timeout          longest single attempt (null = what is left of the call's budget, halved while another
 *                         target could still answer)
 * @param breakerFailures  consecutive failures (5xx, timeouts) that open the provider's breaker
 * @param breakerOpenFor   open time before one half-open probe
 * @param shiftBelowRequests when {@code x-ratelimit-remaining-requests} falls below this, traffic shifts away
 *                         until the provider's reset (0 = never)
 * @param shiftBelowTokens  the same for {@code x-ratelimit-remaining-tokens} (0 = never)
 */
public record ProviderSettings(int permits, long rpm, long tpm, Duration tpmWindow, Duration timeout, int breakerFailures,
        Duration breakerOpenFor, long shiftBelowRequests, long shiftBelowTokens) {

    public static final ProviderSettings DEFAULTS = new ProviderSettings(0, 0, 0, Duration.ofMinutes(1), null, 5,
        Duration.ofSeconds(30), 0, 0);

    public ProviderSettings {
        tpmWindow = tpmWindow == null ? Duration.ofMinutes(1) : tpmWindow;
        breakerOpenFor = breakerOpenFor == null ? Duration.ofSeconds(30) : breakerOpenFor;
        breakerFailures = breakerFailures <= 0 ? 5 : breakerFailures;
        if (permits < 0 || rpm < 0 || tpm < 0 || shiftBelowRequests < 0 || shiftBelowTokens < 0) {
            throw new IllegalArgumentException("provider permits, rpm, tpm and shift thresholds must not be negative");
        }
    }
}
