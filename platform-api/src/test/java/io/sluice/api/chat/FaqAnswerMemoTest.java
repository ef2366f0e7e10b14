package io.sluice.api.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.support.FaqTestBed;
import io.sluice.knowledge.support.TestDatabase;
import io.sluice.semantics.model.SemanticModelStore;
import io.sluice.semantics.model.SemanticModels;
import io.sluice.semantics.relevance.RelevanceModel;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/** F1 answers kept per question: found once, searched again after any knowledge change, never kept degraded. */
class FaqAnswerMemoTest {

    static final RetrievalPlan PLAN = RetrievalPlan.defaults();
    static final FaqAnswerMemo.Remembered REFUND = new FaqAnswerMemo.Remembered(
        new Answer("Refunds arrive in 3 days.", FidelityTier.F1, List.of()), "en", true);

    final AtomicLong snapshot = new AtomicLong(1);
    final AtomicLong index = new AtomicLong(7);
    final AtomicInteger searches = new AtomicInteger();
    final AtomicLong now = new AtomicLong();
    final FaqAnswerMemo memo = new FaqAnswerMemo(100, Duration.ofSeconds(30), snapshot::get, index::get, now::get);

    FaqAnswerMemo.Remembered ask(String question, RetrievalPlan plan, boolean degraded) {
        return memo.answer(question, plan, () -> {
            searches.incrementAndGet();
            return new FaqAnswerMemo.Found(REFUND, degraded);
        });
    }

    @Test
    void aRepeatedQuestionIsSearchedOnce() {
        assertThat(ask("when is my refund", PLAN, false)).isEqualTo(REFUND);
        assertThat(ask("when is my refund", PLAN, false)).isEqualTo(REFUND);
        assertThat(searches).hasValue(1);
        assertThat(memo.size()).isEqualTo(1);
    }

    @Test
    void anotherQuestionOrOtherBarsAreSearched() {
        ask("when is my refund", PLAN, false);
        ask("where is my parcel", PLAN, false);
        ask("when is my refund", PLAN.withTopK(2), false);
        assertThat(searches).hasValue(3);
    }

    @Test
    void aNewSnapshotOrAnIndexCommitSearchesAgain() {
        ask("when is my refund", PLAN, false);
        snapshot.incrementAndGet();
        ask("when is my refund", PLAN, false);
        index.incrementAndGet();
        ask("when is my refund", PLAN, false);
        ask("when is my refund", PLAN, false);
        assertThat(searches).hasValue(3);
    }

    @Test
    void aResultFoundWhileATierWasDownIsNotKept() {
        ask("when is my refund", PLAN, true);
        ask("when is my refund", PLAN, true);
        assertThat(searches).hasValue(2);
        assertThat(memo.size()).isZero();
    }

    @Test
    void anAnswerIsKeptAtMostItsTtl() {
        ask("when is my refund", PLAN, false);
        now.addAndGet(Duration.ofSeconds(29).toNanos());
        ask("when is my refund", PLAN, false);
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        ask("when is my refund", PLAN, false);
        assertThat(searches).hasValue(2);
    }

    @Test
    void sizeZeroKeepsNothing() {
        FaqAnswerMemo off = new FaqAnswerMemo(0, Duration.ofSeconds(30), snapshot::get, index::get);
        for (int i = 0; i < 3; i++) {
            off.answer("when is my refund", PLAN, () -> {
                searches.incrementAndGet();
                return new FaqAnswerMemo.Found(REFUND, false);
            });
        }
        assertThat(searches).hasValue(3);
        assertThat(off.size()).isZero();
    }

    /** Against the real finder: Lucene, the ONNX models, a published snapshot. */
    @Test
    void theStepAnswersFromMemoryWhatASearchFindsAndANewSnapshotIsServedAtOnce(@TempDir Path dir) throws Exception {
        List<FaqEntry> entries = new ArrayList<>(FaqTestBed.entries("faq-en/entries.jsonl").stream()
            .filter(e -> e.key().startsWith("ret-") || e.key().startsWith("pay-")).toList());
        try (FaqTestBed bed = new FaqTestBed(dir, entries)) {
            RelevanceModel relevance = new RelevanceModel(new SemanticModels(new SemanticModelStore(
                new JdbcTemplate(TestDatabase.get()), new DataSourceTransactionManager(TestDatabase.get())), null,
                "test-memo:", Duration.ofSeconds(30), new SimpleMeterRegistry()), FaqTestBed.PLAN, FaqTestBed.JSON);
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            FaqAnswerMemo kept = new FaqAnswerMemo(100, Duration.ofMinutes(5), () -> bed.snapshots.current().version(),
                bed.index::generation).bindTo(meters);
            FaqAnsweringStep remembering = new FaqAnsweringStep(bed.finder, relevance, FaqTestBed.PLAN, meters, kept);
            FaqAnsweringStep searching = new FaqAnsweringStep(bed.finder, relevance, FaqTestBed.PLAN);
            FaqEntry asked = entries.get(0);

            Answer first = remembering.answer(asked.question());
            Answer second = remembering.answer(asked.question());
            assertThat(first.sources()).extracting(ChatResponse.Source::id).containsExactly(asked.key());
            assertThat(second).isEqualTo(first).isEqualTo(searching.answer(asked.question()));
            assertThat(meters.get("cache.gets").tag("cache", "faq-answers").tag("result", "hit").functionCounter().count())
                .isEqualTo(1);

            // the entry's answer changes and a new snapshot is published: the next answer is the new one
            List<FaqEntry> changed = new ArrayList<>(entries);
            changed.set(0, new FaqEntry(asked.id(), asked.key(), asked.question(), asked.phrasings(),
                "Changed: " + asked.answer(), asked.category(), asked.tags(), null, null, null));
            bed.snapshots.publish(bed.snapshots.build(changed));
            assertThat(remembering.answer(asked.question()).text()).startsWith("Changed: ");
        }
    }
}
