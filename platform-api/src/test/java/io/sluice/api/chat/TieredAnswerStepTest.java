package io.sluice.api.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.sluice.api.auth.ApiClient;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.ingress.LoadMonitor;
import io.sluice.api.session.SessionContext;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationProperties;
import io.sluice.governance.degradation.LevelKnobs;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.chain.Freshness;
import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalResult;
import io.sluice.knowledge.chain.Source;

import org.junit.jupiter.api.Test;

/** The tiers of the answering step, driven by the level's knobs, with a fake gateway and retriever. */
class TieredAnswerStepTest {

    static final ApiClient CLIENT = new ApiClient(1, "test", "sk-sluice-test", ClientTier.STANDARD);
    static final Map<DegradationLevel, LevelKnobs> KNOBS = DegradationProperties.defaults().levels();
    static final Answer FAQ = new Answer("退款 1-3 个工作日到账", FidelityTier.F1,
        List.of(new ChatResponse.Source("faq", "2", "退款多久到账？", 3.2f)));

    final FakeLlmGateway gateway = new FakeLlmGateway();
    final LoadMonitor load = new LoadMonitor(100, java.time.Duration.ofMinutes(1));
    final List<Integer> askedTopK = new ArrayList<>();
    String answeredBy = "vector:lucene-knn";

    static Passage passage(int i) {
        return new Passage("x", 0.9 - i * 0.01, "退款政策第" + i + "条：退款原路返回。".repeat(40), null, "refund",
            new Source("doc-" + i, "退款政策", "第" + i + "节", null, null), new Freshness(null, null));
    }

    final PassageRetriever retriever = (question, topK) -> {
        askedTopK.add(topK);
        List<Passage> found = new ArrayList<>();
        for (int i = 0; i < topK; i++) {
            found.add(passage(i));
        }
        return new RetrievalResult(question, answeredBy == null ? List.of() : found, answeredBy, List.of(), 0, 0);
    };

    static ChatContext context(DegradationLevel level, Boolean acceptDeferred) {
        ChatContext ctx = new ChatContext(CLIENT, new ChatRequest("u1", null, "退款多久到账", acceptDeferred));
        ctx.session(SessionContext.fresh());
        ctx.level(level, KNOBS.get(level));
        return ctx;
    }

    TieredAnswerStep step(DeferredAnswers deferred) {
        return new TieredAnswerStep(message -> FAQ, retriever, ChatStepFixtures.llmAccess(gateway), load,
            ChatProperties.defaults(), deferred);
    }

    ChatContext answer(DegradationLevel level) {
        ChatContext ctx = context(level, null);
        step(null).apply(ctx, c -> { });
        return ctx;
    }

    @Test
    void atL0VectorHitsGiveF4WithTheLevelsTopKRouteAndMaxTokensAndNamedSources() {
        ChatContext ctx = answer(DegradationLevel.L0);

        assertThat(ctx.answer().tier()).isEqualTo(FidelityTier.F4);
        assertThat(askedTopK).containsExactly(5);
        assertThat(ctx.answer().sources()).hasSize(5).allSatisfy(s -> assertThat(s.kind()).isEqualTo("document"));
        assertThat(gateway.calls).singleElement().satisfies(request -> {
            assertThat(request.lane()).isEqualTo(Lane.INTERACTIVE);
            assertThat(request.route()).isEqualTo("primary");
            assertThat(request.maxTokens()).isEqualTo(1024);
            assertThat(request.messages().get(0).content()).contains("[5] 退款政策 › 第4节");
        });
    }

    @Test
    void atL1TheAnswerIsLeanFewerTrimmedPassagesAndASmallerCompletion() {
        ChatContext ctx = answer(DegradationLevel.L1);

        assertThat(ctx.answer().tier()).isEqualTo(FidelityTier.F3);
        assertThat(ctx.answer().sources()).hasSize(2);
        String prompt = gateway.calls.get(0).messages().get(0).content();
        assertThat(prompt).contains("[2]").doesNotContain("[3]");
        assertThat(prompt.length()).isLessThan(900);
        assertThat(gateway.calls.get(0).maxTokens()).isEqualTo(384);
    }

    @Test
    void whenOnlyBm25FoundPassagesF4BecomesF3() {
        answeredBy = "bm25";

        ChatContext ctx = answer(DegradationLevel.L0);

        assertThat(ctx.answer().tier()).isEqualTo(FidelityTier.F3);
    }

    @Test
    void atL2TheFaqAnswerIsPolishedByTheLightRouteWithShortMaxTokens() {
        ChatContext ctx = answer(DegradationLevel.L2);

        assertThat(ctx.answer().tier()).isEqualTo(FidelityTier.F2);
        assertThat(ctx.answer().sources()).isEqualTo(FAQ.sources());
        assertThat(askedTopK).isEmpty();
        assertThat(gateway.calls.get(0).maxTokens()).isEqualTo(256);
        assertThat(gateway.calls.get(0).route()).as("the route actually called at L2: the level's light route")
            .isEqualTo("light");
    }

    @Test
    void theRouteCalledPerLevelIsTheLevelsModelRoute() {
        answer(DegradationLevel.L0);
        answer(DegradationLevel.L1);

        assertThat(gateway.calls).extracting(LlmRequest::route).containsOnly("primary");
    }

    @Test
    void atL3NoLlmIsCalled() {
        ChatContext ctx = answer(DegradationLevel.L3);

        assertThat(ctx.answer()).isEqualTo(FAQ);
        assertThat(gateway.calls).isEmpty();
    }

    @Test
    void degradedAndSaturatedOutcomesStepDownOneTierAtATime() {
        AtomicInteger n = new AtomicInteger();
        gateway.behaviour = request -> switch (n.getAndIncrement()) {
            case 0 -> new LlmOutcome.Degraded(LlmOutcome.Reason.PROVIDER_ERROR, "500");
            case 1 -> new LlmOutcome.Saturated(Lane.INTERACTIVE, null, "no permit");
            default -> new LlmOutcome.Answered("ok", "light", 1, 1, 1, false);
        };

        ChatContext ctx = answer(DegradationLevel.L0);

        assertThat(ctx.answer().tier()).isEqualTo(FidelityTier.F2);
        assertThat(gateway.calls).hasSize(3);
        assertThat(ctx.capReason()).contains("F3 saturated");
        assertThat(load.snapshot().samples()).isEqualTo(2);
    }

    @Test
    void whenEveryLlmTierFailsTheFaqAnswersAtF1() {
        gateway.behaviour = request -> new LlmOutcome.Degraded(LlmOutcome.Reason.TIMEOUT, "hung");

        ChatContext ctx = answer(DegradationLevel.L0);

        assertThat(ctx.answer()).isEqualTo(FAQ);
        assertThat(gateway.calls).hasSize(3);
    }

    @Test
    void aRequestAskedToBeDeferredGetsATicketAtF0() {
        UUID id = UUID.randomUUID();
        ChatContext ctx = context(DegradationLevel.L2, true);
        ctx.deferBecause("lane B not admitted at L2");

        step(c -> new DeferredAnswers.Ticket(id, "/api/v1/tasks/" + id)).apply(ctx, c -> { });

        assertThat(ctx.answer().tier()).isEqualTo(FidelityTier.F0);
        assertThat(ctx.answer().ticket().id()).isEqualTo(id);
        assertThat(ctx.answer().text()).contains(id.toString());
        assertThat(gateway.calls).isEmpty();
    }

    @Test
    void aQueueThatCannotTakeTheQuestionMeansF1NotAnError() {
        ChatContext ctx = context(DegradationLevel.L3, true);
        ctx.deferBecause("level");

        step(c -> { throw new IllegalStateException("database down"); }).apply(ctx, c -> { });

        assertThat(ctx.answer()).isEqualTo(FAQ);
    }

    @Test
    void streamingSendsMetaOnceThenEveryToken() {
        ChatContext ctx = context(DegradationLevel.L0, null);
        List<String> events = new ArrayList<>();
        ctx.stream(ChatStepFixtures.recording(events, true));
        gateway.behaviour = request -> new LlmOutcome.Answered("one two three", "primary", 1, 3, 1, false);

        step(null).apply(ctx, c -> { });

        assertThat(events).containsExactly("meta F4", "one ", "two ", "three");
        assertThat(ctx.answer().text()).isEqualTo("one two three");
    }

    @Test
    void aStreamThatBreaksAfterItsFirstTokensIsReportedNotSteppedDown() {
        ChatContext ctx = context(DegradationLevel.L0, null);
        List<String> events = new ArrayList<>();
        ctx.stream(ChatStepFixtures.recording(events, false));
        FakeLlmGateway breaking = new FakeLlmGateway() {
            @Override
            public io.sluice.governance.gateway.LlmStream stream(io.sluice.governance.gateway.LlmRequest request,
                    io.sluice.governance.gateway.LlmStreamListener listener) {
                calls.add(request);
                listener.onToken("half ");
                listener.onEnd(new LlmOutcome.Degraded(LlmOutcome.Reason.PROVIDER_ERROR, "cut"));
                return null;
            }
        };
        TieredAnswerStep step = new TieredAnswerStep(message -> FAQ, retriever, ChatStepFixtures.llmAccess(breaking),
            load, ChatProperties.defaults(), null);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> step.apply(ctx, c -> { }))
            .isInstanceOf(TieredAnswerStep.StreamBrokenException.class);
        assertThat(events).containsExactly("half ");
        assertThat(breaking.calls).hasSize(1);
    }

    @Test
    void nothingRelevantGivesTheHonestNoAnswerAtEveryLevelWithoutAnyLlmCall() {
        answeredBy = null; // the chain found nothing above the relevance bars
        Answer none = new Answer(io.sluice.knowledge.answer.NoAnswer.text(
            io.sluice.knowledge.answer.AnswerLanguage.ENGLISH), FidelityTier.F1, List.of());
        TieredAnswerStep step = new TieredAnswerStep(message -> none, retriever, ChatStepFixtures.llmAccess(gateway),
            load, ChatProperties.defaults(), null);

        for (DegradationLevel level : DegradationLevel.values()) {
            ChatContext ctx = new ChatContext(CLIENT, new ChatRequest("u1", null, "What is the capital of France?", null));
            ctx.session(SessionContext.fresh());
            ctx.level(level, KNOBS.get(level));
            step.apply(ctx, c -> { });
            assertThat(ctx.answer().text()).as("at %s", level).contains("no answer").contains("human agent");
            assertThat(ctx.answer().sources()).isEmpty();
            assertThat(TieredAnswerStep.plannedTier(KNOBS.get(level).highestTier(), true,
                retriever.retrieve("What is the capital of France?", 1), none)).isEqualTo(FidelityTier.F1);
        }
        assertThat(gateway.calls).isEmpty();
    }

    @Test
    void everyLlmPromptSaysWhichLanguageToAnswerIn() {
        TieredAnswerStep step = new TieredAnswerStep(message -> FAQ, retriever, ChatStepFixtures.llmAccess(gateway),
            load, ChatProperties.defaults(), null);
        for (DegradationLevel level : List.of(DegradationLevel.L0, DegradationLevel.L1, DegradationLevel.L2)) {
            ChatContext en = new ChatContext(CLIENT, new ChatRequest("u1", null, "How long does a refund take?", null));
            en.session(SessionContext.fresh());
            en.level(level, KNOBS.get(level));
            step.apply(en, c -> { });
            ChatContext zh = new ChatContext(CLIENT, new ChatRequest("u1", null, "退款多久到帳？", null));
            zh.session(SessionContext.fresh());
            zh.level(level, KNOBS.get(level));
            step.apply(zh, c -> { });
        }
        assertThat(gateway.calls).hasSize(6);
        for (int i = 0; i < 6; i += 2) {
            assertThat(gateway.calls.get(i).messages().get(0).content()).endsWith("Answer in English.");
            assertThat(gateway.calls.get(i + 1).messages().get(0).content()).contains("請用繁體中文回答");
        }
    }
}
