package io.sluice.api.chat;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Freshness notices in answers ({@code sluice.chat.freshness.*}).
 *
 * @param enabled       false = no notices
 * @param maxAge        a source (document ingested, FAQ entry updated) older than this makes the answer say
 *                      how old its information is
 * @param probeInterval how often the database is probed (while it is down, answers from the local FAQ
 *                      snapshot carry the notice)
 */
@Validated
@ConfigurationProperties("sluice.chat.freshness")
public record FreshnessProperties(@DefaultValue("true") boolean enabled, @DefaultValue("365d") @NotNull Duration maxAge,
        @DefaultValue("5s") @NotNull Duration probeInterval) {

    public FreshnessProperties {
        if (maxAge != null && (maxAge.isNegative() || maxAge.isZero())) {
            throw new IllegalArgumentException("sluice.chat.freshness.max-age must be positive, was " + maxAge);
        }
        if (probeInterval != null && probeInterval.toMillis() < 100) {
            throw new IllegalArgumentException("sluice.chat.freshness.probe-interval must be at least 100ms");
        }
    }

    public static FreshnessProperties defaults() {
        return new FreshnessProperties(true, Duration.ofDays(365), Duration.ofSeconds(5));
    }
}
