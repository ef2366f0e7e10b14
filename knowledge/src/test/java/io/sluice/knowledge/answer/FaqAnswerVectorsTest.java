package io.sluice.knowledge.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.support.FaqTestBed;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The F1 ranking's answer vectors under a burst of cold questions (what a surge right after a start or a publish
 * looks like): every answer is embedded once per snapshot version, whoever needs it first, and a question never
 * waits longer than its bound for answers that are still being computed — it is ranked without them instead.
 * Real ONNX models, Lucene and the published snapshot of the team's Traditional Chinese bank FAQ.
 */
class FaqAnswerVectorsTest {

    @TempDir
    static Path dir;
    static FaqTestBed bed;
    static Set<String> answers;

    @BeforeAll
    static void load() {
        List<FaqEntry> entries = FaqTestBed.entries("faq-zht-bank/entries.jsonl");
        bed = new FaqTestBed(dir, entries);
        answers = entries.stream().map(FaqEntry::answer).collect(Collectors.toSet());
    }

    @AfterAll
    static void close() throws Exception {
        bed.close();
    }

    /** The shared model, counting how often each answer text is handed to it, optionally held at a gate. */
    static final class CountingModel implements Embedder {
        final Embedder real;
        final Map<String, AtomicInteger> answerInferences = new ConcurrentHashMap<>();
        final CountDownLatch gate;

        CountingModel(Embedder real, CountDownLatch gate) {
            this.real = real;
            this.gate = gate;
        }

        @Override
        public int dimension() {
            return real.dimension();
        }

        @Override
        public String modelId() {
            return real.modelId();
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            boolean anyAnswer = false;
            for (String t : texts) {
                if (answers.contains(t)) {
                    answerInferences.computeIfAbsent(t, k -> new AtomicInteger()).incrementAndGet();
                    anyAnswer = true;
                }
            }
            if (anyAnswer) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return real.embedAll(texts);
        }
    }

    List<String> questions() {
        List<String> out = new ArrayList<>();
        for (Map<String, String> item : FaqTestBed.items("faq-zht-bank/queries-tune.jsonl")) {
            out.add(item.get("query"));
        }
        return out.subList(0, 24);
    }

    @Test
    void aBurstOfColdQuestionsEmbedsEachAnswerOnceWhoeverNeedsItFirst() throws Exception {
        CountingModel model = new CountingModel(bed.embedder, new CountDownLatch(0));
        FaqAnswerFinder finder = new FaqAnswerFinder(bed.chain, bed.snapshots, model, null);
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<CompletableFuture<FaqAnswerFinder.Found>> found = questions().stream()
                .map(q -> CompletableFuture.supplyAsync(() -> finder.find(q, FaqTestBed.PLAN), callers)).toList();
            for (CompletableFuture<FaqAnswerFinder.Found> f : found) {
                assertThat(f.get(2, TimeUnit.MINUTES).ranked()).isNotEmpty();
            }
            // the warm-up goes on after the questions: every answer gets its vector, each exactly once
            await().atMost(Duration.ofMinutes(2)).until(() -> model.answerInferences.keySet().containsAll(answers));
            assertThat(model.answerInferences.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aQuestionWhoseAnswerVectorsAreNotReadyInTimeIsRankedWithoutThemAndTheyArriveLater() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        CountingModel model = new CountingModel(bed.embedder, gate);
        FaqAnswerFinder finder = new FaqAnswerFinder(bed.chain, bed.snapshots, model, null)
            .answerVectorWait(Duration.ofMillis(100));
        String question = questions().get(0);
        try {
            // the model never finishes an answer while the gate is closed: the question still gets its ranking
            FaqAnswerFinder.Found held = CompletableFuture.supplyAsync(() -> finder.find(question, FaqTestBed.PLAN))
                .get(2, TimeUnit.MINUTES);
            assertThat(held.ranked()).isNotEmpty();
            assertThat(gate.getCount()).as("answered while every answer inference was still held").isEqualTo(1);
        } finally {
            gate.countDown();
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> model.answerInferences.keySet().containsAll(answers));
        FaqAnswerFinder.Found later = finder.find(question, FaqTestBed.PLAN);
        FaqAnswerFinder.Found reference = new FaqAnswerFinder(bed.chain, bed.snapshots, bed.embedder, null)
            .answerVectorWait(Duration.ofMinutes(2)).find(question, FaqTestBed.PLAN);
        assertThat(later.ranked()).extracting(FaqAnswerFinder.Candidate::key)
            .as("with its answer vectors the ranking is the one an unhurried finder gives")
            .containsExactlyElementsOf(reference.ranked().stream().map(FaqAnswerFinder.Candidate::key).toList());
    }

    @Test
    void theWaitIsValidated() {
        FaqAnswerFinder finder = new FaqAnswerFinder(bed.chain, bed.snapshots, bed.embedder, null);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> finder.answerVectorWait(Duration.ofMillis(-1)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("answer-vector-wait");
    }
}
