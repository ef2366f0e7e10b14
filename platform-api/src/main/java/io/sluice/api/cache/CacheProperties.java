package io.sluice.api.cache;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Semantic cache settings ({@code sluice.chat.cache.*}). The similarity threshold is not here: it
 * comes from the degradation level's knobs.
 *
 * @param enabled        false = no cache bean, the pipeline's cache step passes everything on
 * @param keyPrefix      Redis prefix
 * @param promptVersion  part of the key space: change it when the answer prompts change
 * @param ttl            how long an entry is served
 * @param maxEntries     entries per key space (oldest dropped first)
 * @param maxChars       longer questions are not cached
 * @param flightLease    single-flight lock lease (≥ the interactive budget, so a crashed leader frees it)
 * @param flightWait     how long a follower waits for the leader's answer before asking itself
 * @param shortFormChars answers longer than this are stored with a short form (their first sentences within
 *                       this many characters), served at levels whose knobs say {@code cache-short-form}
 * @param nearHitAge     how long an exact hit Redis confirmed is served again by this instance without asking Redis
 *                       (every change to a question's entry reaches the instances at once on the cache's change
 *                       channel; this bounds what a lost message or a change made outside Sluice can cost); 0 = ask
 *                       Redis every time
 */
@Validated
@ConfigurationProperties("sluice.chat.cache")
public record CacheProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("sluice:cache:") @NotBlank String keyPrefix,
    @DefaultValue("v1") @NotBlank String promptVersion,
    @DefaultValue("6h") @NotNull Duration ttl,
    @DefaultValue("5000") @Min(1) int maxEntries,
    @DefaultValue("300") @Min(1) int maxChars,
    @DefaultValue("10s") @NotNull Duration flightLease,
    @DefaultValue("7s") @NotNull Duration flightWait,
    @DefaultValue("160") @Min(40) int shortFormChars,
    @DefaultValue("5s") @NotNull Duration nearHitAge) {

    @ConstructorBinding
    public CacheProperties {
        if (nearHitAge.isNegative()) {
            throw new IllegalArgumentException("sluice.chat.cache.near-hit-age must be 0 or more, was " + nearHitAge);
        }
    }

    /** With the default near-hit age, 5 s. */
    public CacheProperties(boolean enabled, String keyPrefix, String promptVersion, Duration ttl, int maxEntries,
            int maxChars, Duration flightLease, Duration flightWait, int shortFormChars) {
        this(enabled, keyPrefix, promptVersion, ttl, maxEntries, maxChars, flightLease, flightWait, shortFormChars,
            Duration.ofSeconds(5));
    }

    /** Without a short-form length of its own: the default 160. */
    public CacheProperties(boolean enabled, String keyPrefix, String promptVersion, Duration ttl, int maxEntries,
            int maxChars, Duration flightLease, Duration flightWait) {
        this(enabled, keyPrefix, promptVersion, ttl, maxEntries, maxChars, flightLease, flightWait, 160);
    }

    public static CacheProperties defaults() {
        return new CacheProperties(true, "sluice:cache:", "v1", Duration.ofHours(6), 5000, 300,
            Duration.ofSeconds(10), Duration.ofSeconds(7), 160, Duration.ofSeconds(5));
    }
}
