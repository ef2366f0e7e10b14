package io.sluice.api.knowledge;

import java.time.Duration;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The knowledge REST API ({@code sluice.knowledge.api.*}).
 *
 * @param syncWait     an upload waits this long for its ingest; longer ones answer 202 with a job to follow
 * @param ingestWorkers documents ingested at once per instance (off the request threads)
 * @param ingestQueue   further uploads waiting for a worker; beyond it: 503 with Retry-After
 */
@Validated
@ConfigurationProperties("sluice.knowledge.api")
public record KnowledgeApiProperties(@DefaultValue("2s") Duration syncWait, @DefaultValue("2") @Min(1) int ingestWorkers,
        @DefaultValue("16") @Min(1) int ingestQueue) {
}
