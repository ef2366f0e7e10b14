package io.sluice.batch.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.sluice.batch.support.BatchContextTest;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

class WorkQueueTest extends BatchContextTest {

    @Autowired
    WorkQueue queue;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    QueueMetrics metrics;

    private static String uniqueQueue() {
        return "t-" + UUID.randomUUID().toString().substring(0, 12);
    }

    private static NewWorkItem item(String queueName, int n) {
        return NewWorkItem.of(queueName, "deferred_answer", "{\"question\": \"q" + n + "\"}");
    }

    @Test
    void duplicateIdempotencyKeyGivesTheExistingItem() {
        String key = "dup-" + UUID.randomUUID();
        String q = uniqueQueue();
        Enqueued first = queue.enqueue(item(q, 1).withIdempotencyKey(key));
        Enqueued second = queue.enqueue(item(q, 1).withIdempotencyKey(key));

        assertThat(first.created()).isTrue();
        assertThat(second.created()).isFalse();
        assertThat(second.item().id()).isEqualTo(first.item().id());
        assertThat(second.item().ticket()).isEqualTo(first.item().ticket());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM work_item WHERE idempotency_key = ?", Long.class, key))
            .isEqualTo(1L);
    }

    @Test
    void concurrentClaimersNeverShareAnItem() throws Exception {
        String q = uniqueQueue();
        for (int i = 0; i < 200; i++) {
            queue.enqueue(item(q, i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Long>>> claims = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                String owner = "claimer-" + w;
                Callable<List<Long>> claimer = () -> {
                    List<Long> mine = new ArrayList<>();
                    List<ClaimedItem> got;
                    while (!(got = queue.claim(q, 7, owner, Duration.ofMinutes(1))).isEmpty()) {
                        got.forEach(c -> mine.add(c.id()));
                    }
                    return mine;
                };
                claims.add(pool.submit(claimer));
            }
            List<Long> all = new ArrayList<>();
            for (Future<List<Long>> f : claims) {
                all.addAll(f.get());
            }
            assertThat(all).hasSize(200);
            assertThat(new HashSet<>(all)).hasSize(200);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void higherPriorityIsClaimedFirst() {
        String q = uniqueQueue();
        queue.enqueue(item(q, 1).withPriority(9));
        Enqueued urgent = queue.enqueue(item(q, 2).withPriority(0));
        List<ClaimedItem> claimed = queue.claim(q, 1, "w", Duration.ofMinutes(1));
        assertThat(claimed).extracting(ClaimedItem::id).containsExactly(urgent.item().id());
    }

    @Test
    void aDeadWorkersItemsComeBackAfterTheLeaseAndItsLateFinishIsFencedOut() {
        String q = uniqueQueue();
        queue.enqueue(item(q, 1));
        queue.enqueue(item(q, 2));
        List<ClaimedItem> dead = queue.claim(q, 10, "dead-worker", Duration.ofMillis(300));
        assertThat(dead).hasSize(2);
        assertThat(queue.claim(q, 10, "live-worker", Duration.ofMinutes(1))).isEmpty();

        List<ClaimedItem> taken = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            taken.addAll(queue.claim(q, 10, "live-worker", Duration.ofMinutes(1)));
            return taken.size() == 2;
        });
        assertThat(taken).allSatisfy(c -> assertThat(c.attempts()).isEqualTo(2));

        // the dead worker wakes up: its finish must change nothing
        assertThat(queue.complete(dead.get(0), "{\"late\": true}")).isFalse();
        assertThat(queue.fail(dead.get(1), "late failure")).isEqualTo(FailOutcome.LOST_LEASE);
        for (ClaimedItem c : taken) {
            assertThat(queue.complete(c, "{\"ok\": true}")).isTrue();
        }
        assertThat(queue.depth(q)).containsEntry(WorkState.DONE, 2L).doesNotContainKey(WorkState.RUNNING);
        assertThat(queue.find(dead.get(0).id()).orElseThrow().result()).contains("ok");
    }

    @Test
    void failedAttemptsBackOffThenDeadLetterWithTheLastError() {
        String q = uniqueQueue();
        Enqueued e = queue.enqueue(item(q, 1).withMaxAttempts(3));
        double deadBefore = metrics.deadLetteredCount();
        List<FailOutcome> outcomes = new ArrayList<>();
        for (int attempt = 1; attempt <= 3; attempt++) {
            List<ClaimedItem> c = new ArrayList<>();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> c.addAll(queue.claim(q, 1, "w", Duration.ofMinutes(1))));
            assertThat(c.get(0).attempts()).isEqualTo(attempt);
            outcomes.add(queue.fail(c.get(0), "garbage #" + attempt));
        }
        assertThat(outcomes).containsExactly(FailOutcome.RETRY, FailOutcome.RETRY, FailOutcome.DEAD);
        WorkItem dead = queue.find(e.item().id()).orElseThrow();
        assertThat(dead.state()).isEqualTo(WorkState.DEAD);
        assertThat(dead.attempts()).isEqualTo(3);
        assertThat(dead.lastError()).isEqualTo("garbage #3");
        assertThat(queue.claim(q, 1, "w", Duration.ofMinutes(1))).isEmpty();
        assertThat(metrics.deadLetteredCount()).isGreaterThan(deadBefore);
    }

    @Test
    void backoffIsScheduledInTheFuture() {
        String q = uniqueQueue();
        Enqueued e = queue.enqueue(item(q, 1));
        ClaimedItem c = queue.claim(q, 1, "w", Duration.ofMinutes(1)).get(0);
        queue.fail(c, "boom");
        WorkItem retried = queue.find(e.item().id()).orElseThrow();
        assertThat(retried.state()).isEqualTo(WorkState.QUEUED);
        assertThat(retried.nextAttemptAt()).isAfter(retried.createdAt());
    }

    @Test
    void saturationPutBackDoesNotUseAnAttempt() {
        String q = uniqueQueue();
        Enqueued e = queue.enqueue(item(q, 1).withMaxAttempts(1));
        for (int i = 0; i < 3; i++) {
            List<ClaimedItem> c = new ArrayList<>();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> c.addAll(queue.claim(q, 1, "w", Duration.ofMinutes(1))));
            assertThat(queue.requeue(c.get(0), Duration.ZERO)).isTrue();
        }
        WorkItem item = queue.find(e.item().id()).orElseThrow();
        assertThat(item.state()).isEqualTo(WorkState.QUEUED);
        assertThat(item.attempts()).isZero();
    }

    @Test
    void releaseGivesBackWhatAnOwnerHolds() {
        String q = uniqueQueue();
        for (int i = 0; i < 3; i++) {
            queue.enqueue(item(q, i));
        }
        List<ClaimedItem> held = queue.claim(q, 3, "owner-x", Duration.ofMinutes(5));
        assertThat(held).hasSize(3);
        assertThat(queue.releaseAll("owner-x")).isEqualTo(3);
        List<ClaimedItem> again = queue.claim(q, 3, "owner-y", Duration.ofMinutes(5));
        assertThat(again).hasSize(3).allSatisfy(c -> assertThat(c.attempts()).isEqualTo(1));
    }

    @Test
    void exhaustedExpiredLeasesGoToDeadLetter() {
        String q = uniqueQueue();
        Enqueued e = queue.enqueue(item(q, 1).withMaxAttempts(1));
        assertThat(queue.claim(q, 1, "crashing-worker", Duration.ofMillis(100))).hasSize(1);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            queue.claim(q, 1, "other", Duration.ofMinutes(1));
            return queue.find(e.item().id()).orElseThrow().state() == WorkState.DEAD;
        });
        assertThat(queue.find(e.item().id()).orElseThrow().lastError()).contains("lease expired").contains("crashing-worker");
    }

    @Test
    void depthCountsByState() {
        String q = uniqueQueue();
        queue.enqueue(item(q, 1));
        queue.enqueue(item(q, 2));
        queue.claim(q, 1, "w", Duration.ofMinutes(1));
        assertThat(queue.depth(q)).containsEntry(WorkState.QUEUED, 1L).containsEntry(WorkState.RUNNING, 1L);
        assertThat(queue.pending(q)).isEqualTo(2);
        Set<WorkState> global = queue.depth().keySet();
        assertThat(global).contains(WorkState.QUEUED, WorkState.RUNNING);
    }
}
