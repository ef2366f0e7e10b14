package io.sluice.batch.jobs.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.UUID;

import io.sluice.batch.cache.SemanticCacheRebuild;
import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.jobs.JobControlException;
import io.sluice.batch.support.BatchContextTest;

import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.annotation.Autowired;

/** Cluster-wide maintenance jobs run once per scheduled occurrence, whichever instance fires first. */
class ClusterWideJobTest extends BatchContextTest {

    @Autowired
    JobControl jobs;

    @Autowired
    JobRepository repository;

    @Test
    void everyInstanceAgreesOnTheOccurrenceOfATick() {
        LocalDateTime fired = LocalDateTime.of(2026, 11, 30, 3, 30, 0);
        assertThat(JobScheduler.occurrence("0 30 3 * * *", fired.plusNanos(2_000_000)))
            .isEqualTo(JobScheduler.occurrence("0 30 3 * * *", fired.plusSeconds(1))).isEqualTo(fired);
        assertThat(JobScheduler.occurrence("0 * * * * *", LocalDateTime.of(2026, 1, 1, 10, 5, 59)))
            .isEqualTo(LocalDateTime.of(2026, 1, 1, 10, 5, 0));
    }

    @Test
    void aSecondLaunchOfTheSameOccurrenceIsRefusedAndTheCacheSeamIsANoOpByDefault() {
        String occurrence = "test-" + UUID.randomUUID();
        long id = jobs.launchOccurrence(SemanticCacheRebuild.JOB_NAME, occurrence).getId();
        assertThatThrownBy(() -> jobs.launchOccurrence(SemanticCacheRebuild.JOB_NAME, occurrence))
            .isInstanceOfSatisfying(JobControlException.class,
                e -> assertThat(e.kind()).isEqualTo(JobControlException.Kind.CONFLICT));
        await().atMost(Duration.ofSeconds(30)).until(() -> !repository.getJobExecution(id).isRunning());
        assertThat(repository.getJobExecution(id).getStatus()).isEqualTo(BatchStatus.COMPLETED);
    }
}
