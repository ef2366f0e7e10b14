package io.sluice.api.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.answer.NoAnswer;
import io.sluice.knowledge.answer.RelevanceThresholds;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.support.FaqTestBed;
import io.sluice.knowledge.support.TestDatabase;
import io.sluice.semantics.model.Activation.Action;
import io.sluice.semantics.model.SemanticModelStore;
import io.sluice.semantics.model.SemanticModels;
import io.sluice.semantics.relevance.LabelledQuery;
import io.sluice.semantics.relevance.RelevanceCalibrator;
import io.sluice.semantics.relevance.RelevanceModel;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * The chat's answering step over the real parts (Lucene tiers, FAQ snapshot, ONNX models, calibrated
 * relevance bars in PostgreSQL) with a simulated LLM: out-of-domain questions get the honest no-answer at
 * every level, in-domain F1 hits barely move, English questions get English entries and variants.
 * Data: the team's English FAQ plus its out-of-domain questions; calibrated on the tune part, measured on
 * the held-out part.
 */
class RelevanceAndLanguageTest {

    @TempDir
    static Path dir;

    static FaqTestBed bed;
    static RelevanceModel relevance;
    static FaqAnsweringStep f1;
    static final FakeLlmGateway gateway = new FakeLlmGateway();

    @BeforeAll
    static void calibrate() {
        List<FaqEntry> entries = new java.util.ArrayList<>(FaqTestBed.entries("faq-en/entries.jsonl"));
        // a Chinese entry with an English variant (key + ".en"), and one Chinese entry without
        entries.add(new FaqEntry(900, "gift-zh", "礼品卡可以转赠给朋友吗？", List.of("礼品卡能送人吗"),
            "可以，在“我的礼品卡”中选择“转赠”，输入朋友的手机号即可。", "membership", List.of(), null, null, null));
        entries.add(new FaqEntry(901, "gift-zh.en", "Can I give my gift card to a friend?", List.of(),
            "Yes: in My gift cards choose Transfer and enter your friend's phone number.", "membership", List.of(), null,
            null, null));
        bed = new FaqTestBed(dir, entries);
        SemanticModels models = new SemanticModels(new SemanticModelStore(new JdbcTemplate(TestDatabase.get()),
            new DataSourceTransactionManager(TestDatabase.get())), null, "test:", Duration.ofSeconds(30),
            new SimpleMeterRegistry());
        relevance = new RelevanceModel(models, FaqTestBed.PLAN, FaqTestBed.JSON);
        List<LabelledQuery> tune = LabelledQuery.of(FaqTestBed.items("faq-en/queries-tune.jsonl", "ood/ood-tune.jsonl"));
        RelevanceThresholds bars = new RelevanceCalibrator(bed.chain, bed.embedder, 0.01).calibrate(tune,
            relevance.thresholds());
        long version = models.save(RelevanceModel.KIND, relevance.encode(bars), "{}", "test", "test").version();
        models.activate(RelevanceModel.KIND, version, Action.FORCE, "test", "RelevanceAndLanguageTest");
        assertThat(relevance.thresholds()).isEqualTo(bars);
        f1 = new FaqAnsweringStep(bed.finder, relevance, FaqTestBed.PLAN);
    }

    @AfterAll
    static void close() throws Exception {
        bed.close();
    }

    static TieredAnswerStep step() {
        return ChatStepFixtures.tieredAnswering(f1, bed, relevance, gateway);
    }

    static ChatContext ask(TieredAnswerStep step, String question, DegradationLevel level) {
        ChatContext ctx = ChatStepFixtures.question(question, level);
        step.apply(ctx, c -> { });
        return ctx;
    }

    @Test
    void outOfDomainQuestionsGetTheHonestNoAnswerAtEveryLevelWithAnLlmConfigured() {
        TieredAnswerStep step = step();
        List<Map<String, String>> held = FaqTestBed.items("ood/ood-heldout.jsonl");
        int honestEverywhere = 0;
        for (Map<String, String> q : held) {
            boolean all = true;
            for (DegradationLevel level : DegradationLevel.values()) {
                ChatContext ctx = ask(step, q.get("query"), level);
                all &= NoAnswer.is(ctx.answer().text()) && ctx.answer().sources().isEmpty();
            }
            honestEverywhere += all ? 1 : 0;
        }
        double rate = (double) honestEverywhere / held.size();
        System.out.printf("out-of-domain honest no-answer at every level (held-out, %d questions): %.3f%n", held.size(), rate);
        assertThat(rate).isGreaterThanOrEqualTo(0.90);
    }

    @Test
    void inDomainF1HitsDropByNoMoreThanOnePointWithTheGate() {
        List<Map<String, String>> held = FaqTestBed.items("faq-en/queries-heldout.jsonl");
        FaqAnsweringStep ungated = new FaqAnsweringStep(bed.finder, new RelevanceModel(new SemanticModels(
            new SemanticModelStore(new JdbcTemplate(TestDatabase.get()), new DataSourceTransactionManager(TestDatabase.get())),
            null, "test2:", Duration.ofSeconds(30), new SimpleMeterRegistry()), FaqTestBed.PLAN
                .withThresholds(-1, 0, 0).withEnglishVectorThreshold(-1), FaqTestBed.JSON), FaqTestBed.PLAN);
        int gated = 0;
        int open = 0;
        for (Map<String, String> q : held) {
            gated += key(f1.answer(q.get("query"))).equals(q.get("key")) ? 1 : 0;
            open += key(ungated.answer(q.get("query"))).equals(q.get("key")) ? 1 : 0;
        }
        System.out.printf("English FAQ held-out F1 hit@1: %.3f gated, %.3f without bars%n", gated / (double) held.size(),
            open / (double) held.size());
        assertThat(gated / (double) held.size()).isGreaterThanOrEqualTo(open / (double) held.size() - 0.01);
    }

    @Test
    void englishQuestionsAreAnsweredInEnglishAtF1WhenAnEnglishEntryOrVariantExists() {
        Answer gift = f1.answer("Can I pass my gift card on to a friend?");
        assertThat(gift.sources()).singleElement().satisfies(s -> assertThat(s.id()).isEqualTo("gift-zh.en"));
        assertThat(gift.text()).startsWith("Yes: in My gift cards");
        assertThat(f1.answer("礼品卡可以送给别人吗").sources()).singleElement()
            .satisfies(s -> assertThat(s.id()).isEqualTo("gift-zh"));

        ChatContext ctx = ask(step(), "How long do I have to return something?", DegradationLevel.L3);
        assertThat(ctx.answer().tier()).isEqualTo(FidelityTier.F1);
        assertThat(ctx.answer().sources()).singleElement().satisfies(s -> assertThat(s.id()).isEqualTo("ret-02"));
        assertThat(io.sluice.knowledge.answer.AnswerLanguage.of(ctx.answer().text()))
            .isEqualTo(io.sluice.knowledge.answer.AnswerLanguage.ENGLISH);
        assertThat(NoAnswer.is(f1.answer("What is the capital of France?").text())).isTrue();
    }

    private static String key(Answer a) {
        return a.sources().isEmpty() ? "" : a.sources().get(0).id();
    }
}
