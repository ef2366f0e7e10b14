package io.sluice.batch.progress;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Where a job execution stands: readable while it runs (counts are committed with every chunk).
 *
 * @param done          items finished by this execution (written, including retries scheduled and put-backs, plus skipped)
 * @param total         done + items still pending in its queue; null when the job cannot know
 * @param skipped       poison items skipped to dead-letter
 * @param ratePerSecond done ÷ seconds since start
 * @param etaSeconds    (total - done) ÷ rate while running; 0 when finished; null when unknown
 * @param percent       done ÷ total × 100; null when total is unknown
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobProgress(long executionId, long instanceId, String job, String status, String exitCode,
        String exitDescription, Map<String, String> parameters, Instant startTime, Instant endTime, long done,
        Long total, long skipped, double ratePerSecond, Long etaSeconds, Integer percent, String statusUrl) {
}
