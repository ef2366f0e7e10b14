package io.sluice.api.cache;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Semantic-cache rebuild settings ({@code sluice.chat.cache.rebuild.*}), used by the batch job
 * {@code semantic-cache-rebuild}.
 *
 * @param window          how far back the conversation log is read for frequent questions
 * @param feedbackWindow  how far back negative feedback ({@code NOT_HELPFUL}) drops cached answers
 * @param top             most frequent questions warmed per run
 * @param minOccurrences  a question asked fewer times (per client) is not warmed
 * @param maxMessages     newest questions read from the log per run
 */
@Validated
@ConfigurationProperties("sluice.chat.cache.rebuild")
public record CacheRebuildProperties(
    @DefaultValue("24h") @NotNull Duration window,
    @DefaultValue("7d") @NotNull Duration feedbackWindow,
    @DefaultValue("200") @Min(0) @Max(10000) int top,
    @DefaultValue("2") @Min(1) int minOccurrences,
    @DefaultValue("20000") @Min(1) int maxMessages) {
}
