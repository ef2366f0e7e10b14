package io.sluice.semantics.config;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code sluice.semantics.*}: where learned models are announced and how often an instance checks
 * that it answers with the cluster's current versions.
 *
 * @param keyPrefix       Redis names (the announcement topic is {@code <prefix>models})
 * @param catchUpInterval how often each instance compares its models with the cluster's current ones
 *                        (covers announcements missed while Redis was unreachable)
 */
@Validated
@ConfigurationProperties("sluice.semantics")
public record SemanticsProperties(
        @DefaultValue("sluice:semantics:") @NotBlank String keyPrefix,
        @DefaultValue("30s") @NotNull Duration catchUpInterval) {

    public SemanticsProperties {
        if (catchUpInterval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("sluice.semantics.catch-up-interval must be at least 1s");
        }
    }
}
