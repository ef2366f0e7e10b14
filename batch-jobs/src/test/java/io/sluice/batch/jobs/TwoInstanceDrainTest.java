package io.sluice.batch.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.sluice.batch.jobs.drain.DrainJobConfiguration;
import io.sluice.batch.queue.ClaimedItem;
import io.sluice.batch.queue.NewWorkItem;
import io.sluice.batch.queue.WorkQueue;
import io.sluice.batch.queue.WorkState;
import io.sluice.batch.support.BatchTestApplication;
import io.sluice.batch.support.FakeLlmGateway;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two independent instances (own Spring context, JobOperator, job repository access, pools and worker
 * id) draining the same PostgreSQL queue.
 */
class TwoInstanceDrainTest {

    static ConfigurableApplicationContext a;
    static ConfigurableApplicationContext b;

    @BeforeAll
    static void start() {
        a = BatchTestApplication.startInstance("instance-a");
        b = BatchTestApplication.startInstance("instance-b");
    }

    @AfterAll
    static void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    static String uniqueQueue() {
        return "t-" + UUID.randomUUID().toString().substring(0, 12);
    }

    static JobExecution finished(ConfigurableApplicationContext context, long executionId) {
        JobRepository repository = context.getBean(JobRepository.class);
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
            .until(() -> !repository.getJobExecution(executionId).isRunning());
        return repository.getJobExecution(executionId);
    }

    static JobExecution drain(ConfigurableApplicationContext context, String queueName) {
        return context.getBean(JobControl.class).launch(DrainJobConfiguration.JOB_NAME, Map.of("queue", queueName));
    }

    @Test
    void twoInstancesDrainAThousandItemsEachExactlyOnce() {
        String q = uniqueQueue();
        WorkQueue queue = a.getBean(WorkQueue.class);
        for (int i = 0; i < 1000; i++) {
            queue.enqueue(NewWorkItem.of(q, "deferred_answer", "{\"question\": \"" + q + " #" + i + "\"}"));
        }
        FakeLlmGateway gatewayA = a.getBean(FakeLlmGateway.class);
        FakeLlmGateway gatewayB = b.getBean(FakeLlmGateway.class);
        gatewayA.latency(Duration.ofMillis(2));
        gatewayB.latency(Duration.ofMillis(2));

        JobExecution runA = drain(a, q);
        JobExecution runB = drain(b, q);
        assertThat(finished(a, runA.getId()).getStatus()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(finished(b, runB.getId()).getStatus()).isEqualTo(BatchStatus.COMPLETED);

        JdbcTemplate jdbc = a.getBean(JdbcTemplate.class);
        assertThat(queue.depth(q)).containsOnly(Map.entry(WorkState.DONE, 1000L));
        assertThat(jdbc.queryForObject("""
            SELECT count(*) FROM deferred_answer d JOIN work_item w ON w.id = d.work_item_id WHERE w.queue = ?""",
            Long.class, q)).isEqualTo(1000);
        assertThat(jdbc.queryForObject("SELECT max(attempts) FROM work_item WHERE queue = ?", Integer.class, q)).isEqualTo(1);

        // every item went to the provider exactly once, across both instances
        Set<String> prompts = new HashSet<>();
        AtomicInteger calls = new AtomicInteger();
        for (FakeLlmGateway gateway : List.of(gatewayA, gatewayB)) {
            gateway.allCalls().forEach((prompt, n) -> {
                if (prompt.startsWith(q)) {
                    prompts.add(prompt);
                    calls.addAndGet(n.get());
                }
            });
        }
        assertThat(prompts).hasSize(1000);
        assertThat(calls.get()).isEqualTo(1000);
        long doneByA = a.getBean(JobControl.class).progress(runA.getId()).done();
        long doneByB = b.getBean(JobControl.class).progress(runB.getId()).done();
        assertThat(doneByA + doneByB).isEqualTo(1000);
        assertThat(doneByA).isPositive();
        assertThat(doneByB).isPositive();
    }

    @Test
    void itemsOfAWorkerKilledMidChunkAreProcessedByTheOtherAfterTheVisibilityTimeout() {
        String q = uniqueQueue();
        WorkQueue queue = a.getBean(WorkQueue.class);
        for (int i = 0; i < 30; i++) {
            queue.enqueue(NewWorkItem.of(q, "deferred_answer", "{\"question\": \"" + q + " #" + i + "\"}"));
        }
        // instance A's drain "dies" mid-chunk: it claimed 10 items under a short lease and never finishes them
        List<ClaimedItem> abandoned = queue.claim(q, 10, "instance-a/exec-killed", Duration.ofMillis(1500));
        assertThat(abandoned).hasSize(10);

        JobExecution run = finished(b, drain(b, q).getId());

        assertThat(run.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(queue.depth(q)).containsOnly(Map.entry(WorkState.DONE, 30L));
        FakeLlmGateway gatewayB = b.getBean(FakeLlmGateway.class);
        for (ClaimedItem item : abandoned) {
            var done = queue.find(item.id()).orElseThrow();
            assertThat(done.attempts()).isEqualTo(2); // the killed attempt counts
            assertThat(done.result()).contains("answer to:");
            assertThat(gatewayB.calls(new String(item.payload().replaceAll(".*\"question\": \"(.*)\".*", "$1")))).isEqualTo(1);
        }
        // the killed worker comes back to life: its late result is refused
        assertThat(queue.complete(abandoned.get(0), "{\"late\": true}")).isFalse();
    }
}
