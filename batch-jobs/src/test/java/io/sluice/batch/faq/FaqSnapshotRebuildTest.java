package io.sluice.batch.faq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.support.BatchTestApplication;
import io.sluice.batch.support.TestKnowledge;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqMatch;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two instances (own Spring context, own snapshot directory) sharing PostgreSQL and Redis: the
 * faq-snapshot-rebuild job launched on one puts the new version in service on both; a snapshot that
 * fails validation is published nowhere; a rollback reaches both; mined candidates wait for review.
 */
class FaqSnapshotRebuildTest {

    static ConfigurableApplicationContext a;
    static ConfigurableApplicationContext b;

    @BeforeAll
    static void start() {
        a = BatchTestApplication.startInstance("faq-a");
        b = BatchTestApplication.startInstance("faq-b");
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

    static JobExecution rebuild(ConfigurableApplicationContext on) {
        long id = on.getBean(JobControl.class).launch(FaqSnapshotRebuild.JOB_NAME, Map.of()).getId();
        JobRepository repository = on.getBean(JobRepository.class);
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
            .until(() -> !repository.getJobExecution(id).isRunning());
        return repository.getJobExecution(id);
    }

    static FaqSnapshot serving(ConfigurableApplicationContext on) {
        return on.getBean(FaqSnapshotService.class).current();
    }

    static String bestKey(ConfigurableApplicationContext on, String question) {
        List<FaqMatch> top = serving(on).match(question, TestKnowledge.embedder().embed(question), 1, null, null);
        return top.isEmpty() ? null : top.get(0).entry().key();
    }

    static void awaitServing(long version) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            assertThat(serving(a).version()).isEqualTo(version);
            assertThat(serving(b).version()).isEqualTo(version);
        });
    }

    /** A customer question answered at F1 (faq tier), stored as the chat pipeline stores it. */
    static void logLowTierQuestion(JdbcTemplate jdbc, String question, String feedback) {
        UUID conversation = UUID.randomUUID();
        UUID request = UUID.randomUUID();
        jdbc.update("INSERT INTO conversation (id, user_id) VALUES (?, ?)", conversation, "faq-test");
        jdbc.update("INSERT INTO conversation_message (conversation_id, request_id, role, content) VALUES (?, ?, 'USER', ?)",
            conversation, request, question);
        jdbc.update("INSERT INTO conversation_message (conversation_id, request_id, role, content, tier, feedback) "
            + "VALUES (?, ?, 'ASSISTANT', ?, 'F1', ?)", conversation, request, "自动回答", feedback);
    }

    @Test
    void rebuildPublishesOnBothInstancesRejectsAnInvalidSnapshotAndRollsBack() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        FaqRepository faq = a.getBean(FaqRepository.class);
        JdbcTemplate jdbc = a.getBean(JdbcTemplate.class);
        String key = "bt-" + tag;
        String question = "会员积分 " + tag + " 可以兑换哪些礼品？";
        faq.upsert(new FaqEntry(0, key, question, List.of("points " + tag + " gift exchange"),
            "积分可在会员中心兑换礼品。", "membership", List.of(), null, null, null));
        // a frequent question the FAQ does not cover, answered at F1, once marked not helpful
        String unanswered = "发票 " + tag + " 抬头开错了怎么重开";
        logLowTierQuestion(jdbc, unanswered, null);
        logLowTierQuestion(jdbc, unanswered, "NOT_HELPFUL");
        logLowTierQuestion(jdbc, "发票 " + tag + " 抬头开错了，怎么重开？", null);

        String invoiceKey = "bt-inv-" + tag;
        try {
            // build → validate → swap, visible on both instances
            JobExecution first = rebuild(a);
            assertThat(first.getStatus()).isEqualTo(BatchStatus.COMPLETED);
            long v1 = a.getBean(FaqSnapshotStore.class).current().orElseThrow();
            awaitServing(v1);
            assertThat(bestKey(a, question)).isEqualTo(key);
            assertThat(bestKey(b, question)).isEqualTo(key);

            // the mined question is proposed for review, not published
            FaqCandidateStore candidates = a.getBean(FaqCandidateStore.class);
            FaqCandidate candidate = candidates.list("PROPOSED", 1000).stream()
                .filter(c -> c.question().contains(tag)).findFirst().orElseThrow();
            assertThat(candidate.occurrences()).isEqualTo(3);
            assertThat(candidate.negative()).isEqualTo(1);
            assertThat(serving(b).entries()).noneMatch(e -> e.question().contains("发票 " + tag));

            // reviewed → in the next snapshot, on both instances
            a.getBean(FaqCandidateReview.class).approve(candidate.id(), invoiceKey, null, "在订单详情申请重开发票即可。",
                "invoice", "tester");
            JobExecution second = rebuild(b);
            assertThat(second.getStatus()).isEqualTo(BatchStatus.COMPLETED);
            long v2 = a.getBean(FaqSnapshotStore.class).current().orElseThrow();
            assertThat(v2).isGreaterThan(v1);
            awaitServing(v2);
            assertThat(bestKey(a, unanswered)).isEqualTo(invoiceKey);
            assertThat(bestKey(b, unanswered)).isEqualTo(invoiceKey);

            // duplicates make entries miss themselves: validation fails, nothing is published, v2 keeps answering
            List<String> duplicates = new ArrayList<>();
            try {
                int n = faq.findAll().size();
                for (int i = 0; i < n / 15 + 2; i++) {
                    String dup = key + "-dup-" + i;
                    faq.upsert(new FaqEntry(0, dup, question, List.of(), "重复条目", "membership", List.of(), null, null, null));
                    duplicates.add(dup);
                }
                JobExecution failed = rebuild(a);
                assertThat(failed.getStatus()).isEqualTo(BatchStatus.FAILED);
                assertThat(failed.getExitStatus().getExitDescription()).contains("failed validation").contains("self-hit");
                assertThat(a.getBean(FaqSnapshotStore.class).current()).contains(v2);
                assertThat(serving(a).version()).isEqualTo(v2);
                assertThat(serving(b).version()).isEqualTo(v2);
                assertThat(bestKey(b, question)).isEqualTo(key);
            } finally {
                duplicates.forEach(faq::deleteByKey);
            }

            // roll back to v1 in one call: both instances serve it again
            b.getBean(FaqSnapshotDistribution.class).rollback(v1);
            awaitServing(v1);
            assertThat(a.getBean(FaqSnapshotStore.class).current()).contains(v1);
            assertThat(bestKey(a, unanswered)).isNotEqualTo(invoiceKey);
            assertThat(a.getBean(FaqSnapshotStore.class).versions()).extracting(FaqSnapshotStore.Version::version)
                .contains(v1, v2);
        } finally {
            // leave nothing that a later run (or another test) would mine or match
            jdbc.update("DELETE FROM conversation WHERE user_id = 'faq-test'");
            jdbc.update("DELETE FROM faq_candidate WHERE question LIKE ?", "%" + tag + "%");
            faq.deleteByKey(key);
            faq.deleteByKey(invoiceKey);
            jdbc.update("DELETE FROM knowledge_document WHERE external_id = ?", "faq:" + invoiceKey);
            // test snapshots must not become what other applications on this database catch up to
            jdbc.update("DELETE FROM faq_snapshot_current");
            jdbc.update("DELETE FROM faq_snapshot_blob");
        }
    }
}
