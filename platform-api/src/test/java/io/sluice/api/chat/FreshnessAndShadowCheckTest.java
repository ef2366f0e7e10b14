package io.sluice.api.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.session.SessionContext;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.support.FaqTestBed;
import io.sluice.knowledge.support.TestDatabase;
import io.sluice.semantics.model.SemanticModelStore;
import io.sluice.semantics.model.SemanticModels;
import io.sluice.semantics.pairs.QuestionAnalyzer;
import io.sluice.semantics.relevance.RelevanceModel;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Freshness notices and the F2→F1 shadow check over the real parts the chat answers from: the team's
 * English FAQ in Lucene and a published FAQ snapshot, the ONNX models, the relevance model in PostgreSQL;
 * "the database is down" is a DataSource at a closed port (as in the knowledge module's chain tests). Only
 * the light model is simulated.
 */
class FreshnessAndShadowCheckTest {

    static final Instant OLD = Instant.parse("2024-01-02T08:00:00Z");

    @TempDir
    static Path dir;

    static FaqTestBed bed;
    static RelevanceModel relevance;
    static FaqAnsweringStep f1;
    static final FakeLlmGateway gateway = new FakeLlmGateway();
    static final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @BeforeAll
    static void knowledgeBase() {
        List<FaqEntry> entries = new ArrayList<>();
        for (FaqEntry e : FaqTestBed.entries("faq-en/entries.jsonl")) {
            if (e.key().startsWith("acc-") || e.key().startsWith("ret-") || e.key().startsWith("pay-")) {
                // ret-02 (the return period) was last updated long ago; the others have no date of their own
                entries.add("ret-02".equals(e.key()) ? new FaqEntry(e.id(), e.key(), e.question(), e.phrasings(),
                    e.answer(), e.category(), e.tags(), null, null, OLD) : e);
            }
        }
        bed = new FaqTestBed(dir, entries);
        SemanticModels models = new SemanticModels(new SemanticModelStore(new JdbcTemplate(TestDatabase.get()),
            new DataSourceTransactionManager(TestDatabase.get())), null, "test-fresh:", Duration.ofSeconds(30), meters);
        relevance = new RelevanceModel(models, FaqTestBed.PLAN, FaqTestBed.JSON);
        f1 = new FaqAnsweringStep(bed.finder, relevance, FaqTestBed.PLAN);
    }

    @AfterAll
    static void close() throws Exception {
        bed.close();
    }

    static TieredAnswerStep answering() {
        return ChatStepFixtures.tieredAnswering(f1, bed, relevance, gateway);
    }

    static FreshnessStep freshness(DatabaseStatus database) {
        return new FreshnessStep(FreshnessProperties.defaults(), bed.snapshots::current, database, meters,
            Clock.systemUTC());
    }

    static ShadowCheck check() {
        return new ShadowCheck(new QuestionAnalyzer(), ShadowCheck.snapshotMatcher(
            text -> bed.snapshots.match(bed.snapshots.current(), text, bed.embedder.embed(text), 3, null, Instant.now()),
            FaqTestBed.PLAN.minFaqScore(), 0.05));
    }

    /** The steps in the pipeline's order: freshness → shadow check → answer. */
    static ChatContext ask(String question, DegradationLevel level, DatabaseStatus database) {
        ChatContext ctx = ChatStepFixtures.question(question, level);
        TieredAnswerStep answer = answering();
        ShadowCheckStep shadow = new ShadowCheckStep(check(), true, meters);
        freshness(database).apply(ctx, c -> shadow.apply(c, c2 -> answer.apply(c2, c3 -> { })));
        return ctx;
    }

    static double count(String name, String... tags) {
        var c = meters.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    // --- item 3: freshness ------------------------------------------------------------------------

    @Test
    void anAnswerFromAnEntryOlderThanTheMaxAgeSaysHowOldItsInformationIsInTheTextAndTheResponse() {
        ChatContext old = ask("How long do I have to return something?", DegradationLevel.L3, DatabaseStatus.UP);

        assertThat(old.answer().tier()).isEqualTo(FidelityTier.F1);
        assertThat(old.answer().sources()).extracting(ChatResponse.Source::id).containsExactly("ret-02");
        assertThat(old.answer().text()).startsWith("You have 30 days")
            .endsWith("(Based on information from 2024-01-02; may be outdated.)");
        ChatResponse response = ChatResponse.of(old);
        assertThat(response.freshness()).isEqualTo(new ChatResponse.Freshness("2024-01-02", "age", true));

        ChatContext fresh = ask("How do I reset my password?", DegradationLevel.L3, DatabaseStatus.UP);
        assertThat(fresh.answer().sources()).extracting(ChatResponse.Source::id).containsExactly("acc-01");
        assertThat(fresh.answer().text()).doesNotContain("may be outdated");
        assertThat(ChatResponse.of(fresh).freshness()).isNull();
        assertThat(count("sluice.chat.freshness.notices", "reason", "age")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void withTheDatabaseDownAnAnswerFromTheFaqSnapshotCarriesTheSnapshotsDate() {
        DatabaseStatus down = new DatabaseStatus(TestDatabase.down());
        assertThat(down.check()).isFalse();
        assertThat(down.down()).isTrue();

        ChatContext ctx = ask("How do I reset my password?", DegradationLevel.L3, down);

        String snapshotDate = FreshnessStep.date(bed.snapshots.current().createdAt());
        assertThat(ctx.answer().tier()).isEqualTo(FidelityTier.F1);
        assertThat(ctx.answer().text()).startsWith("On the sign-in page")
            .endsWith("(Based on information from " + snapshotDate + "; may be outdated.)");
        assertThat(ChatResponse.of(ctx).freshness())
            .isEqualTo(new ChatResponse.Freshness(snapshotDate, "database-unavailable", true));
        // an entry older than the snapshot is dated by its own update
        ChatContext older = ask("How long do I have to return something?", DegradationLevel.L3, down);
        assertThat(ChatResponse.of(older).freshness().basedOn()).isEqualTo("2024-01-02");
        assertThat(ChatResponse.of(older).freshness().reason()).isEqualTo("database-unavailable");
    }

    @Test
    void noNoticeForAnswersWithoutSourcesOrWhenSwitchedOff() {
        DatabaseStatus down = new DatabaseStatus(TestDatabase.down());
        down.check();
        ChatContext ctx = new ChatContext(TieredAnswerStepTest.CLIENT, new ChatRequest("u1", null, "hi", null));
        ctx.session(SessionContext.fresh());
        freshness(down).apply(ctx, c -> c.answer(new Answer("Sorry, no answer.", FidelityTier.F1, List.of())));
        assertThat(ctx.staleness()).isNull();

        ChatContext off = new ChatContext(TieredAnswerStepTest.CLIENT, new ChatRequest("u1", null, "退货期限", null));
        off.session(SessionContext.fresh());
        new FreshnessStep(new FreshnessProperties(false, Duration.ofDays(1), Duration.ofSeconds(5)), bed.snapshots::current,
            down, meters, Clock.systemUTC()).apply(off, c -> c.answer(new Answer("30 天", FidelityTier.F1,
                List.of(new ChatResponse.Source("faq", "ret-02", "q", 1f)))));
        assertThat(off.answer().text()).isEqualTo("30 天");
    }

    // --- item 7: F2 → F1 shadow check -------------------------------------------------------------

    @Test
    void theShadowCheckReadsNumbersNegationAndTheEntryATextIsAbout() {
        ShadowCheck check = check();
        String period = "You have 30 days from delivery; during December the period runs to 31 January.";

        assertThat(check.contradiction(period, "Hello! You have 30 days from delivery (in December: until 31 January)."))
            .isNull();
        assertThat(check.contradiction(period, "You have 60 days from delivery to send it back.")).isEqualTo("numbers");
        assertThat(check.contradiction(period, "tok0 tok1 tok2")).as("digits in names are no amounts").isNull();
        assertThat(check.contradiction(period, "You have 30 weeks from delivery.")).isEqualTo("numbers");
        assertThat(check.contradiction("Yes, you can change the delivery address before the parcel ships.",
            "No, you cannot change the delivery address before the parcel ships.")).isEqualTo("negation");
        assertThat(check.contradiction("退款1-3个工作日原路退回。", "您好，退款1-3个工作日原路退回，如未到账请联系客服。"))
            .as("a conditional courtesy line is no flipped answer").isNull();
        assertThat(check.contradiction(period, "You have 30 days from delivery. If it has not arrived yet, contact us."))
            .isNull();
        assertThat(check.contradiction("拆封后可以退货。", "您好，拆封后不可以退货。")).isEqualTo("negation");
        assertThat(check.contradiction("非常抱歉给您带来不便，我们会在24小时内回复您。", "我们会在24小时内回复您。"))
            .as("a negated clause the polish left out flips nothing").isNull();
        // the polish answers another entry's question (changing the phone number instead of the email)
        assertThat(check.contradiction(
            "Open Account settings, choose Email, enter the new address and confirm it from the message we send there.",
            "Open Account settings, Phone, enter the new number and the code we text to it.")).isEqualTo("entry");
    }

    @Test
    void aPolishThatContradictsItsFaqAnswerIsReplacedByTheFaqAnswerAsF1AndCounted() {
        gateway.behaviour = request -> new LlmOutcome.Answered("Good news: you have 90 days from delivery to return it.",
            "fake-light", 10, 5, 1, false);
        double numbers = count("sluice.chat.shadow", "outcome", "numbers");
        double agreedBefore = count("sluice.chat.shadow", "outcome", "agreed");
        try {
            ChatContext ctx = ask("How long do I have to return something?", DegradationLevel.L2, DatabaseStatus.UP);

            assertThat(ctx.answer().tier()).isEqualTo(FidelityTier.F1);
            assertThat(ctx.answer().text()).startsWith("You have 30 days from delivery");
            assertThat(ctx.answer().sources()).extracting(ChatResponse.Source::id).containsExactly("ret-02");
            assertThat(ctx.capReason()).contains("contradicts").contains("numbers");
            assertThat(count("sluice.chat.shadow", "outcome", "numbers")).isEqualTo(numbers + 1);

            gateway.behaviour = request -> new LlmOutcome.Answered(
                "Sure! On the sign-in page choose Forgot password, enter your email and follow the link we send within "
                    + "10 minutes.", "fake-light", 10, 5, 1, false);
            ChatContext agreed = ask("How do I reset my password?", DegradationLevel.L2, DatabaseStatus.UP);
            assertThat(agreed.answer().tier()).isEqualTo(FidelityTier.F2);
            assertThat(agreed.answer().text()).startsWith("Sure!");
            assertThat(count("sluice.chat.shadow", "outcome", "agreed")).isEqualTo(agreedBefore + 1);
        } finally {
            gateway.behaviour = request -> new LlmOutcome.Answered("polished", "fake-light", 10, 5, 1, false);
        }
    }

    @Test
    void aStreamedF2IsMadeWithAPlainCallSoItCanBeCheckedBeforeItGoesOut() {
        gateway.calls.clear();
        ChatContext ctx = ChatStepFixtures.question("How do I reset my password?", DegradationLevel.L2);
        List<String> tokens = new ArrayList<>();
        ctx.stream(ChatStepFixtures.recording(tokens, false));
        new ShadowCheckStep(check(), true, meters).apply(ctx, c -> answering().apply(c, c2 -> { }));

        assertThat(ctx.answer().tier()).isIn(FidelityTier.F2, FidelityTier.F1);
        assertThat(tokens).as("nothing streamed before the check").isEmpty();
        assertThat(gateway.calls).isNotEmpty();
    }
}
