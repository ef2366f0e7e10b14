package io.sluice.batch;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Batch settings ({@code sluice.batch.*}); every key is described in docs/batch.md.
 *
 * @param workerId name of this instance in {@code work_item.locked_by}; blank = host name + random suffix
 * @param queue    durable work queue: lease (visibility timeout), attempts, backoff
 * @param tasks    task API limits
 * @param drain    the work-queue drain job
 * @param jobs     schedule per job name (cron, enabled)
 * @param yield    how the batch lane yields to the interactive lane
 * @param faq      FAQ snapshot rebuild: validation, versions kept, distribution, candidate mining
 */
@ConfigurationProperties("sluice.batch")
public record SluiceBatchProperties(
        String workerId,
        @DefaultValue Queue queue,
        @DefaultValue Tasks tasks,
        @DefaultValue Drain drain,
        Map<String, JobSchedule> jobs,
        @DefaultValue Yield yield,
        @DefaultValue Faq faq) {

    public SluiceBatchProperties {
        if (workerId == null || workerId.isBlank()) {
            workerId = defaultWorkerId();
        }
        jobs = jobs == null ? Map.of() : Map.copyOf(jobs);
    }

    /**
     * @param lease              visibility timeout: a claimed item not finished within it is claimable again
     * @param maxAttempts        attempts before an item goes to dead-letter (per item, set at enqueue)
     * @param backoffBase        delay after the first failed attempt; doubles per attempt
     * @param backoffMax         cap of that delay
     * @param saturatedDelay     delay before retrying an item the gateway refused for saturation (no attempt used)
     * @param metricsRefresh     how often queue depth gauges are re-read from the database
     */
    public record Queue(
            @DefaultValue("5m") Duration lease,
            @DefaultValue("5") int maxAttempts,
            @DefaultValue("2s") Duration backoffBase,
            @DefaultValue("5m") Duration backoffMax,
            @DefaultValue("1s") Duration saturatedDelay,
            @DefaultValue("10s") Duration metricsRefresh) {

        /** Delay after the n-th failed attempt (n >= 1): base * 2^(n-1), capped. */
        public Duration backoff(int attempt) {
            int shift = Math.max(0, Math.min(attempt - 1, 30));
            long millis = backoffBase.toMillis() << shift;
            if (millis < 0 || millis > backoffMax.toMillis()) {
                return backoffMax;
            }
            return Duration.ofMillis(millis);
        }
    }

    /** @param maxPayloadBytes largest accepted task payload (serialized JSON); larger is a 400 */
    public record Tasks(@DefaultValue("16384") int maxPayloadBytes) {
    }

    /**
     * @param chunkSize      items per chunk (one transaction writes a chunk's results)
     * @param concurrency    most LLM calls in flight per drain job (the throttle's ceiling)
     * @param linger         a drain waits this long for items that become due soon (backoff, expiring leases) before ending
     * @param pollInterval   how often it looks while lingering
     * @param maxInputChars  longest conversation/document text put into a summary prompt
     * @param maxTokens      completion cap of a summary or deferred answer
     * @param skipLimit      poison items a single run may skip before it fails
     */
    public record Drain(
            @DefaultValue("32") int chunkSize,
            @DefaultValue("8") int concurrency,
            @DefaultValue("2s") Duration linger,
            @DefaultValue("100ms") Duration pollInterval,
            @DefaultValue("12000") int maxInputChars,
            @DefaultValue("512") int maxTokens,
            @DefaultValue("1000") int skipLimit) {
    }

    /**
     * @param enabled whether the cron fires (manual launch through the API works either way)
     * @param cron    Spring cron expression (six fields, seconds first)
     */
    public record JobSchedule(@DefaultValue("true") boolean enabled, String cron) {
    }

    /**
     * @param highWater      interactive occupancy above which the batch lane halves its limit
     * @param lowWater       interactive occupancy below which it grows by one per sample
     * @param floor          lowest limit (batch always makes some progress)
     * @param sampleInterval how often occupancy is sampled
     */
    public record Yield(
            @DefaultValue("0.85") double highWater,
            @DefaultValue("0.5") double lowWater,
            @DefaultValue("1") int floor,
            @DefaultValue("250ms") Duration sampleInterval) {
    }

    /**
     * @param minSelfHitRate   validation: share of entries that must retrieve themselves first by their own question
     * @param minCountRatio    validation: a new snapshot must keep at least this share of the current one's entries
     * @param keepVersions     published versions kept in the database (roll back to any of them)
     * @param channel          Redis pub/sub channel announcing the version every instance should load
     * @param mineWindow       how far back conversation logs are mined for candidates
     * @param minOccurrences   a group of similar questions is proposed once it has this many
     * @param similarity       cosine similarity at which two questions count as the same question
     * @param maxMessages      most recent qualifying questions mined per run
     */
    public record Faq(
            @DefaultValue("0.95") double minSelfHitRate,
            @DefaultValue("0.5") double minCountRatio,
            @DefaultValue("10") int keepVersions,
            @DefaultValue("sluice:batch:faq-snapshot") String channel,
            @DefaultValue("7d") Duration mineWindow,
            @DefaultValue("3") int minOccurrences,
            @DefaultValue("0.85") double similarity,
            @DefaultValue("5000") int maxMessages) {
    }

    public JobSchedule schedule(String job) {
        return jobs.get(job);
    }

    private static String defaultWorkerId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "worker";
        }
        return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
