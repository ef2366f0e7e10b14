package io.sluice.batch.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import io.sluice.batch.jobs.drain.DrainJobConfiguration;
import io.sluice.batch.queue.Enqueued;
import io.sluice.batch.queue.NewWorkItem;
import io.sluice.batch.queue.WorkItem;
import io.sluice.batch.queue.WorkQueue;
import io.sluice.batch.queue.WorkState;
import io.sluice.batch.support.BatchContextTest;
import io.sluice.batch.support.FakeLlmGateway;
import io.sluice.batch.support.TestData;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmOutcome;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

class DrainJobTest extends BatchContextTest {

    @Autowired
    JobControl jobs;

    @Autowired
    JobRepository repository;

    @Autowired
    WorkQueue queue;

    @Autowired
    FakeLlmGateway gateway;

    @Autowired
    JdbcTemplate jdbc;

    @AfterEach
    void resetGateway() {
        gateway.reset();
    }

    static String uniqueQueue() {
        return "t-" + UUID.randomUUID().toString().substring(0, 12);
    }

    static String question(String queueName, int n) {
        return queueName + " question " + n;
    }

    Enqueued deferred(String queueName, int n, int maxAttempts) {
        return queue.enqueue(new NewWorkItem(queueName, "deferred_answer", 5,
            "{\"question\": \"" + question(queueName, n) + "\"}", null, maxAttempts));
    }

    JobExecution drain(String queueName, Map<String, String> extra) {
        Map<String, String> parameters = new java.util.HashMap<>(extra);
        parameters.put("queue", queueName);
        return jobs.launch(DrainJobConfiguration.JOB_NAME, parameters);
    }

    JobExecution finished(long executionId) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
            .until(() -> !repository.getJobExecution(executionId).isRunning());
        return repository.getJobExecution(executionId);
    }

    @Test
    void drainsSummariesAndDeferredAnswersThroughTheBatchLaneAndStoresLinkedResults() {
        String q = uniqueQueue();
        UUID conversation = TestData.conversation(jdbc, "My order 123 never arrived", "I have re-sent it today.");
        long document = TestData.document(jdbc, "Returns policy", "Returns are accepted within 30 days.", "Refunds take 5 days.");
        Enqueued conv = queue.enqueue(NewWorkItem.of(q, "summarize_conversation", "{\"conversationId\": \"" + conversation + "\"}"));
        Enqueued doc = queue.enqueue(NewWorkItem.of(q, "summarize_document", "{\"documentId\": " + document + "}"));
        Enqueued answer = deferred(q, 1, 0);

        JobExecution execution = finished(drain(q, Map.of()).getId());

        assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(queue.depth(q)).containsOnly(Map.entry(WorkState.DONE, 3L));
        assertThat(gateway.lanes()).isNotEmpty().allMatch(lane -> lane == Lane.BATCH);
        assertThat(jdbc.queryForObject("SELECT content FROM summary WHERE conversation_id = ?", String.class, conversation))
            .contains("My order 123 never arrived");
        assertThat(jdbc.queryForObject("SELECT work_item_id FROM summary WHERE document_id = ?", Long.class, document))
            .isEqualTo(doc.item().id());
        assertThat(jdbc.queryForObject("SELECT answer FROM deferred_answer WHERE ticket = ?", String.class, answer.item().ticket()))
            .isEqualTo("answer to: " + question(q, 1));
        WorkItem done = queue.find(conv.item().ticket()).orElseThrow();
        assertThat(done.progress()).isEqualTo(100);
        assertThat(done.result()).contains("\"summary\"").contains(conversation.toString());

        var progress = jobs.progress(execution.getId());
        assertThat(progress.done()).isEqualTo(3);
        assertThat(progress.total()).isEqualTo(3);
        assertThat(progress.percent()).isEqualTo(100);
        assertThat(progress.etaSeconds()).isZero();
    }

    @Test
    void poisonItemsEndInDeadLetterWithTheirErrorWhileTheRestComplete() {
        String q = uniqueQueue();
        List<Enqueued> good = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            good.add(deferred(q, i, 3));
        }
        Enqueued garbage = queue.enqueue(new NewWorkItem(q, "deferred_answer", 5,
            "{\"question\": \"POISON " + q + "\"}", null, 3));
        Enqueued missing = queue.enqueue(NewWorkItem.of(q, "summarize_conversation",
            "{\"conversationId\": \"" + UUID.randomUUID() + "\"}"));
        gateway.script(prompt -> prompt.startsWith("POISON")
            ? new LlmOutcome.Degraded(LlmOutcome.Reason.UNPARSABLE, "provider returned garbage")
            : null);

        JobExecution execution = finished(drain(q, Map.of()).getId());

        assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        WorkItem deadGarbage = queue.find(garbage.item().id()).orElseThrow();
        assertThat(deadGarbage.state()).isEqualTo(WorkState.DEAD);
        assertThat(deadGarbage.attempts()).isEqualTo(3);
        assertThat(deadGarbage.lastError()).contains("UNPARSABLE").contains("garbage");
        assertThat(gateway.calls("POISON " + q)).isEqualTo(3);

        WorkItem deadMissing = queue.find(missing.item().id()).orElseThrow();
        assertThat(deadMissing.state()).isEqualTo(WorkState.DEAD);
        assertThat(deadMissing.lastError()).startsWith("poison item: conversation").contains("does not exist");
        assertThat(deadMissing.attempts()).isEqualTo(1);

        assertThat(good).allSatisfy(e -> assertThat(queue.find(e.item().id()).orElseThrow().state()).isEqualTo(WorkState.DONE));
        assertThat(jobs.progress(execution.getId()).skipped()).isEqualTo(1);
    }

    @Test
    void saturationPutsItemsBackWithoutUsingAttempts() {
        String q = uniqueQueue();
        Enqueued item = deferred(q, 1, 1);
        AtomicBoolean refusedOnce = new AtomicBoolean();
        gateway.script(prompt -> refusedOnce.compareAndSet(false, true)
            ? new LlmOutcome.Saturated(Lane.BATCH, Duration.ofMillis(10), "no permit")
            : null);

        JobExecution execution = finished(drain(q, Map.of()).getId());

        assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        WorkItem done = queue.find(item.item().id()).orElseThrow();
        assertThat(done.state()).isEqualTo(WorkState.DONE);
        assertThat(done.attempts()).isEqualTo(1);
        assertThat(gateway.calls(question(q, 1))).isEqualTo(2);
    }

    @Test
    void restartContinuesFromTheLastCommittedChunk() {
        String q = uniqueQueue();
        int items = 80; // chunk size 16 in tests: 5 chunks
        for (int i = 0; i < items; i++) {
            deferred(q, i, 0);
        }
        // item 40 is read in chunk 3: the worker "crashes" (an exception no skip policy covers)
        String crashOn = question(q, 40);
        AtomicBoolean crashed = new AtomicBoolean();
        gateway.script(prompt -> {
            if (prompt.equals(crashOn) && crashed.compareAndSet(false, true)) {
                throw new IllegalStateException("simulated worker crash");
            }
            return null;
        });

        JobExecution failed = finished(drain(q, Map.of()).getId());
        assertThat(failed.getStatus()).isEqualTo(BatchStatus.FAILED);
        long doneAfterFailure = queue.depth(q).getOrDefault(WorkState.DONE, 0L);
        assertThat(doneAfterFailure).isEqualTo(32); // chunks 1 and 2 committed
        assertThat(queue.depth(q)).doesNotContainKey(WorkState.RUNNING); // the failed chunk was given back

        JobExecution restarted = finished(jobs.restart(failed.getId()).getId());

        assertThat(restarted.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(restarted.getJobInstance().getInstanceId()).isEqualTo(failed.getJobInstance().getInstanceId());
        assertThat(queue.depth(q)).containsOnly(Map.entry(WorkState.DONE, (long) items));
        for (int i = 0; i < 32; i++) {
            assertThat(gateway.calls(question(q, i))).as("item %d of a committed chunk", i).isEqualTo(1);
        }
        assertThat(jdbc.queryForObject("""
            SELECT count(*) FROM deferred_answer d JOIN work_item w ON w.id = d.work_item_id WHERE w.queue = ?""",
            Long.class, q)).isEqualTo(items);
        assertThat(jobs.progress(restarted.getId()).done()).isEqualTo(items - 32);
    }

    @Test
    void aRunWhoseInstanceDiedIsRecoveredOnRestart() {
        String q = uniqueQueue();
        for (int i = 0; i < 20; i++) {
            deferred(q, i, 0);
        }
        AtomicBoolean crashed = new AtomicBoolean();
        gateway.script(prompt -> {
            if (prompt.equals(question(q, 17)) && crashed.compareAndSet(false, true)) {
                throw new IllegalStateException("simulated crash");
            }
            return null;
        });
        JobExecution failed = finished(drain(q, Map.of()).getId());
        // what a JVM killed mid-run leaves behind: the run still marked STARTED, not updated since
        jdbc.update("UPDATE batch_job_execution SET status = 'STARTED', end_time = NULL, last_updated = now() - interval '1 hour' WHERE job_execution_id = ?", failed.getId());
        jdbc.update("UPDATE batch_step_execution SET status = 'STARTED', end_time = NULL, last_updated = now() - interval '1 hour' WHERE job_execution_id = ?", failed.getId());
        assertThat(jobs.stale(DrainJobConfiguration.JOB_NAME)).extracting(JobExecution::getId).contains(failed.getId());
        assertThat(jobs.running(DrainJobConfiguration.JOB_NAME)).extracting(JobExecution::getId).doesNotContain(failed.getId());

        JobExecution restarted = finished(jobs.restart(failed.getId()).getId());

        assertThat(restarted.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(queue.depth(q)).containsOnly(Map.entry(WorkState.DONE, 20L));
    }

    @Autowired
    io.sluice.batch.jobs.drain.DrainItemWriter writer;

    @Autowired
    org.springframework.transaction.PlatformTransactionManager transactionManager;

    @Test
    void aResultThatCannotBeStoredDeadLettersOnlyItsOwnItem() {
        String q = uniqueQueue();
        UUID conversation = TestData.conversation(jdbc, "hello", "hi");
        UUID vanished = UUID.randomUUID(); // e.g. the conversation was deleted while the summary was being written
        queue.enqueue(NewWorkItem.of(q, "summarize_conversation", "{\"conversationId\": \"" + conversation + "\"}"));
        queue.enqueue(NewWorkItem.of(q, "summarize_conversation", "{\"conversationId\": \"" + vanished + "\"}"));
        List<io.sluice.batch.queue.ClaimedItem> claimed = queue.claim(q, 2, "writer-test", Duration.ofMinutes(1));
        var results = new org.springframework.batch.infrastructure.item.Chunk<io.sluice.batch.jobs.drain.DrainResult>();
        results.add(new io.sluice.batch.jobs.drain.DrainResult.Completed(claimed.get(0),
            new io.sluice.batch.jobs.drain.DrainResult.ConversationSummary(conversation), "fine", "m"));
        results.add(new io.sluice.batch.jobs.drain.DrainResult.Completed(claimed.get(1),
            new io.sluice.batch.jobs.drain.DrainResult.ConversationSummary(vanished), "orphan", "m"));

        new org.springframework.transaction.support.TransactionTemplate(transactionManager)
            .executeWithoutResult(status -> writer.write(results));

        assertThat(queue.find(claimed.get(0).id()).orElseThrow().state()).isEqualTo(WorkState.DONE);
        WorkItem dead = queue.find(claimed.get(1).id()).orElseThrow();
        assertThat(dead.state()).isEqualTo(WorkState.DEAD);
        assertThat(dead.lastError()).startsWith("result could not be stored");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM summary WHERE conversation_id = ?", Long.class, conversation))
            .isEqualTo(1);
    }

    @Test
    void withoutAnUsableGatewayTheDrainLeavesTheQueueUntouched() {
        String q = uniqueQueue();
        deferred(q, 1, 0);
        gateway.available(false);

        JobExecution execution = finished(drain(q, Map.of()).getId());

        assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(execution.getExitStatus().getExitCode()).isEqualTo("NOOP");
        assertThat(queue.depth(q)).containsOnly(Map.entry(WorkState.QUEUED, 1L));
        assertThat(queue.find(queue.claim(q, 1, "probe", Duration.ofSeconds(1)).get(0).id()).orElseThrow().attempts())
            .isEqualTo(1);
    }

    @Test
    void processesAChunksItemsConcurrentlyWithinTheThrottle() {
        String q = uniqueQueue();
        for (int i = 0; i < 32; i++) {
            deferred(q, i, 0);
        }
        gateway.latency(Duration.ofMillis(30));

        JobExecution execution = finished(drain(q, Map.of("maxItems", "32")).getId());

        assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(gateway.maxInFlight()).isGreaterThan(1).isLessThanOrEqualTo(4);
    }
}
