package io.sluice.batch.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.jobs.drain.DrainJobConfiguration;
import io.sluice.batch.support.BatchTestApplication;
import io.sluice.batch.support.FakeLlmGateway;
import io.sluice.governance.gateway.LlmOutcome;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Lease renewal: a live worker keeps an item that takes longer than the visibility timeout (nobody else
 * gets it, it is processed once); a dead worker's items still come back after the timeout, and its late
 * renewals and results are fenced off.
 */
class LeaseRenewalTest {

    static final Duration LEASE = Duration.ofMillis(900);

    static ConfigurableApplicationContext instance;

    @BeforeAll
    static void start() {
        instance = BatchTestApplication.startInstance("lease-" + UUID.randomUUID().toString().substring(0, 8),
            Map.of("sluice.batch.queue.lease", LEASE.toMillis() + "ms"));
    }

    @AfterAll
    static void stop() {
        if (instance != null) {
            instance.close();
        }
    }

    static String uniqueQueue() {
        return "lease-" + UUID.randomUUID().toString().substring(0, 12);
    }

    WorkQueue queue() {
        return instance.getBean(WorkQueue.class);
    }

    Instant lockedUntil(long id) {
        return queue().find(id).orElseThrow().lockedUntil();
    }

    Instant databaseNow() {
        return instance.getBean(JdbcTemplate.class).queryForObject("SELECT now()", java.sql.Timestamp.class).toInstant();
    }

    @Test
    void anItemTakingLongerThanTheVisibilityTimeoutIsProcessedOnceWhileItsWorkerIsAlive() throws Exception {
        String q = uniqueQueue();
        String question = q + " slow question";
        long id = queue().enqueue(NewWorkItem.of(q, "deferred_answer", "{\"question\": \"" + question + "\"}")).item().id();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        FakeLlmGateway gateway = instance.getBean(FakeLlmGateway.class);
        gateway.script(prompt -> {
            if (!prompt.equals(question)) {
                return null;
            }
            started.countDown();
            try {
                finish.await(60, TimeUnit.SECONDS); // the "long" item: runs until the test lets it finish
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new LlmOutcome.Degraded(LlmOutcome.Reason.TIMEOUT, "interrupted");
            }
            return null;
        });
        double renewedBefore = instance.getBean(QueueMetrics.class).renewedCount();
        try {
            JobExecution run = instance.getBean(JobControl.class).launch(DrainJobConfiguration.JOB_NAME, Map.of("queue", q));
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            Instant firstLeaseEnd = lockedUntil(id);

            // another worker keeps trying while the first lease, and a whole second one, pass
            List<ClaimedItem> takenByOthers = new ArrayList<>();
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
                takenByOthers.addAll(queue().claim(q, 10, "other-worker", LEASE));
                return databaseNow().isAfter(firstLeaseEnd.plus(LEASE));
            });
            assertThat(takenByOthers).isEmpty();
            WorkItem held = queue().find(id).orElseThrow();
            assertThat(held.state()).isEqualTo(WorkState.RUNNING);
            assertThat(held.lockedUntil()).isAfter(firstLeaseEnd);
            assertThat(instance.getBean(QueueMetrics.class).renewedCount()).isGreaterThan(renewedBefore);

            finish.countDown();
            JobRepository repository = instance.getBean(JobRepository.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> !repository.getJobExecution(run.getId()).isRunning());
            assertThat(repository.getJobExecution(run.getId()).getStatus()).isEqualTo(BatchStatus.COMPLETED);
        } finally {
            finish.countDown();
            gateway.script(prompt -> null);
        }
        WorkItem done = queue().find(id).orElseThrow();
        assertThat(done.state()).isEqualTo(WorkState.DONE);
        assertThat(done.attempts()).isEqualTo(1);
        assertThat(done.result()).contains("answer to: " + question);
        assertThat(gateway.calls(question)).isEqualTo(1);
        assertThat(instance.getBean(JdbcTemplate.class).queryForObject(
            "SELECT count(*) FROM deferred_answer WHERE work_item_id = ?", Long.class, id)).isEqualTo(1);
    }

    @Test
    void aDeadWorkersItemsComeBackAfterTheTimeoutAndItsLateRenewalsAndResultsAreFenced() {
        String q = uniqueQueue();
        long id = queue().enqueue(NewWorkItem.of(q, "deferred_answer", "{\"question\": \"" + q + " x\"}")).item().id();
        LeaseKeeper keeper = new LeaseKeeper(queue());
        ClaimedItem mine = queue().claim(q, 1, "doomed-worker", LEASE).get(0);
        Instant firstLeaseEnd = lockedUntil(id);
        keeper.hold("doomed-worker", LEASE);

        // alive: renewed past its first lease, nobody else gets it
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
            .until(() -> lockedUntil(id).isAfter(firstLeaseEnd));
        assertThat(queue().claim(q, 1, "other-worker", LEASE)).isEmpty();

        // the worker dies: no more renewals; the item comes back once its last lease has passed
        keeper.close();
        List<ClaimedItem> takenOver = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
            .until(() -> takenOver.addAll(queue().claim(q, 1, "other-worker", LEASE)));
        assertThat(takenOver).extracting(ClaimedItem::id).containsExactly(id);
        assertThat(takenOver.get(0).attempts()).isEqualTo(2);

        // fencing: the dead worker's late renewal and late result change nothing
        Instant othersLease = lockedUntil(id);
        assertThat(queue().renew("doomed-worker", Duration.ofMinutes(10))).isZero();
        assertThat(lockedUntil(id)).isEqualTo(othersLease);
        assertThat(queue().complete(mine, "{\"late\": true}")).isFalse();
        assertThat(queue().complete(takenOver.get(0), "{\"ok\": true}")).isTrue();
        assertThat(queue().find(id).orElseThrow().state()).isEqualTo(WorkState.DONE);
    }
}
