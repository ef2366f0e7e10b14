package io.sluice.api.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import io.sluice.api.admission.AdmissionProperties;
import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.auth.ApiClient;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.ingress.LoadMonitor;
import io.sluice.api.intent.Intent;
import io.sluice.api.intent.IntentEnhancer;
import io.sluice.api.intent.IntentResult;
import io.sluice.api.intent.Priority;
import io.sluice.api.intent.RuleIntentClassifier;
import io.sluice.api.session.SessionContext;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationProperties;
import io.sluice.governance.degradation.LevelKnobs;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.tier.FidelityTier;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/** Each pipeline step on its own, with a fake gateway and no servers. */
class ChatStepsTest {

    static final ApiClient CLIENT = new ApiClient(1, "test", "sk-sluice-test", ClientTier.STANDARD);
    static final Answer FAQ = new Answer("退款 1-3 个工作日到账", FidelityTier.F1,
        List.of(new ChatResponse.Source("faq", "2", "退款多久到账？", 3.2f)));
    static final Map<DegradationLevel, LevelKnobs> KNOBS = DegradationProperties.defaults().levels();

    final FakeLlmGateway gateway = new FakeLlmGateway();
    final LoadMonitor load = new LoadMonitor(100, Duration.ofMinutes(1));
    final ChatProperties properties = ChatProperties.defaults();

    static ChatContext context(String message, DegradationLevel level) {
        ChatContext ctx = new ChatContext(CLIENT, new ChatRequest("u1", null, message));
        ctx.session(SessionContext.fresh());
        ctx.level(level, KNOBS.get(level));
        return ctx;
    }

    LlmAccess access(LlmGateway... gateways) {
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        for (LlmGateway g : gateways) {
            beans.addBean("gateway", g);
        }
        return new LlmAccess(beans.getBeanProvider(LlmGateway.class));
    }

    TieredAnswerStep answering(AnsweringStep faq, LlmAccess llm) {
        return new TieredAnswerStep(faq, llm, load, properties);
    }

    static final ChatStep.Next END = ctx -> { };

    @Test
    void thePipelineRunsItsStepsInOrderAndOutwardWorkAfterTheInnerSteps() {
        List<String> trace = new ArrayList<>();
        ChatPipeline pipeline = new ChatPipeline(List.of(
            (ctx, next) -> { trace.add("ingress"); next.proceed(ctx); },
            (ctx, next) -> { next.proceed(ctx); trace.add("record (on the way out)"); },
            (ctx, next) -> { trace.add("answer"); next.proceed(ctx); }));

        pipeline.run(context("hi", DegradationLevel.L0));

        assertThat(trace).containsExactly("ingress", "answer", "record (on the way out)");
    }

    @Test
    void withoutAGatewayTheAnswerIsTheFaqAtF1() {
        ChatContext ctx = context("退款多久到账", DegradationLevel.L0);

        answering(message -> FAQ, access()).apply(ctx, END);

        assertThat(ctx.answer()).isEqualTo(FAQ);
    }

    @Test
    void withAGatewayAtL0TheFaqAnswerIsPolishedAtF2OnTheInteractiveLane() {
        ChatContext ctx = context("退款多久到账", DegradationLevel.L0);

        answering(message -> FAQ, access(gateway)).apply(ctx, END);

        assertThat(ctx.answer().tier()).isEqualTo(FidelityTier.F2);
        assertThat(ctx.answer().text()).isEqualTo("polished: 退款多久到账");
        assertThat(ctx.answer().sources()).isEqualTo(FAQ.sources());
        assertThat(gateway.calls).singleElement().satisfies(request -> {
            assertThat(request.lane()).isEqualTo(Lane.INTERACTIVE);
            assertThat(request.maxTokens()).isEqualTo(256);
            assertThat(request.messages().get(0).content()).contains(FAQ.text());
        });
        assertThat(load.snapshot().samples()).isEqualTo(1);
    }

    @Test
    void aLevelThatCapsAtF1KeepsTheLlmOutAndL2CapsMaxTokens() {
        ChatContext l3 = context("退款多久到账", DegradationLevel.L3);
        answering(message -> FAQ, access(gateway)).apply(l3, END);
        assertThat(l3.answer().tier()).isEqualTo(FidelityTier.F1);
        assertThat(gateway.calls).isEmpty();

        KNOBS.get(DegradationLevel.L3);
        ChatContext l2 = context("退款多久到账", DegradationLevel.L2);
        answering(message -> FAQ, access(gateway)).apply(l2, END);
        assertThat(l2.answer().tier()).isEqualTo(FidelityTier.F2);
        assertThat(gateway.calls.get(0).maxTokens()).isEqualTo(KNOBS.get(DegradationLevel.L2).maxTokens());
    }

    @Test
    void degradedOrSaturatedGatewayOutcomesFallBackToF1AndSaySo() {
        gateway.behaviour = request -> new LlmOutcome.Degraded(LlmOutcome.Reason.TIMEOUT, "slow");
        ChatContext degraded = context("退款多久到账", DegradationLevel.L0);
        answering(message -> FAQ, access(gateway)).apply(degraded, END);
        assertThat(degraded.answer()).isEqualTo(FAQ);
        assertThat(degraded.capReason()).contains("TIMEOUT");
        assertThat(load.snapshot().errorRatio()).isEqualTo(1.0);

        gateway.behaviour = request -> new LlmOutcome.Saturated(Lane.INTERACTIVE, Duration.ofSeconds(1), "no permit");
        ChatContext saturated = context("退款多久到账", DegradationLevel.L0);
        answering(message -> FAQ, access(gateway)).apply(saturated, END);
        assertThat(saturated.answer()).isEqualTo(FAQ);
        assertThat(saturated.capReason()).contains("saturated");
    }

    @Test
    void noFaqMatchMeansNoLlmCall() {
        Answer noMatch = new Answer("sorry", FidelityTier.F1, List.of());
        ChatContext ctx = context("???", DegradationLevel.L0);

        answering(message -> noMatch, access(gateway)).apply(ctx, END);

        assertThat(ctx.answer()).isEqualTo(noMatch);
        assertThat(gateway.calls).isEmpty();
    }

    @Test
    void admissionIsSkippedWhenNoLlmWillBeCalled() {
        PriorityAdmission admission = new PriorityAdmission(AdmissionProperties.defaults(1));
        AtomicBoolean inFlightWhileAnswering = new AtomicBoolean();
        ChatContext ctx = context("hi", DegradationLevel.L0);
        ctx.intent(new RuleIntentClassifier().classify("我要投诉"));

        new AdmissionStep(admission, access()).apply(ctx, c -> inFlightWhileAnswering.set(admission.inFlight() > 0));

        assertThat(inFlightWhileAnswering).isFalse();
    }

    @Test
    void admissionHoldsASlotWhileAnsweringAndReleasesIt() {
        PriorityAdmission admission = new PriorityAdmission(AdmissionProperties.defaults(1));
        AtomicBoolean inFlightWhileAnswering = new AtomicBoolean();
        ChatContext ctx = context("hi", DegradationLevel.L0);
        ctx.intent(new RuleIntentClassifier().classify("我要投诉"));

        new AdmissionStep(admission, access(gateway)).apply(ctx, c -> inFlightWhileAnswering.set(admission.inFlight() == 1));

        assertThat(inFlightWhileAnswering).isTrue();
        assertThat(admission.inFlight()).isZero();
        assertThat(ctx.tierCap()).isEqualTo(FidelityTier.F4);
    }

    @Test
    void laneBIsNotQueuedAtALevelThatDoesNotAdmitIt() {
        PriorityAdmission admission = new PriorityAdmission(AdmissionProperties.defaults(1));
        ChatContext b = context("怎么查物流", DegradationLevel.L2);
        b.intent(new RuleIntentClassifier().classify("怎么查物流"));
        ChatContext s = context("我要投诉", DegradationLevel.L2);
        s.intent(new RuleIntentClassifier().classify("我要投诉"));

        new AdmissionStep(admission, access(gateway)).apply(b, END);
        new AdmissionStep(admission, access(gateway)).apply(s, END);

        assertThat(b.tierCap()).isEqualTo(FidelityTier.F1);
        assertThat(b.capReason()).contains("lane B");
        assertThat(s.tierCap()).isEqualTo(FidelityTier.F2);
    }

    @Test
    void aClientThatAcceptsDeferralIsMarkedForF0WhenShedOrAtAnLlmFreeLevelButNotOtherwise() {
        PriorityAdmission admission = new PriorityAdmission(AdmissionProperties.defaults(1));
        ChatContext shed = deferrable("怎么查物流", DegradationLevel.L2);
        ChatContext l3 = deferrable("我要投诉", DegradationLevel.L3);
        ChatContext admitted = deferrable("我要投诉", DegradationLevel.L0);

        for (ChatContext ctx : List.of(shed, l3, admitted)) {
            new AdmissionStep(admission, access(gateway)).apply(ctx, END);
        }

        assertThat(shed.deferReason()).contains("lane B");
        assertThat(l3.deferReason()).contains("L3");
        assertThat(admitted.deferReason()).isNull();
    }

    static ChatContext deferrable(String message, DegradationLevel level) {
        ChatContext ctx = new ChatContext(CLIENT, new ChatRequest("u1", null, message, true));
        ctx.session(SessionContext.fresh());
        ctx.level(level, KNOBS.get(level));
        ctx.intent(new RuleIntentClassifier().classify(message));
        return ctx;
    }

    @Test
    void aRequestThatWouldMissItsDeadlineIsAnsweredAtF1WithoutWaiting() {
        PriorityAdmission admission = new PriorityAdmission(new AdmissionProperties(1, null, 0.5, Duration.ofSeconds(1),
            Map.of(Priority.A, Duration.ofMillis(100)), null, Duration.ofSeconds(5), 0.2));
        PriorityAdmission.Ticket busy = admission.admit(Priority.S, false, PriorityAdmission.QueueListener.NONE);
        ChatContext ctx = context("付款失败", DegradationLevel.L0);
        ctx.intent(new RuleIntentClassifier().classify("付款失败"));

        new AdmissionStep(admission, access(gateway)).apply(ctx, END);

        assertThat(ctx.tierCap()).isEqualTo(FidelityTier.F1);
        assertThat(ctx.capReason()).contains("would_miss_deadline");
        busy.close();
    }

    @Test
    void intentEnhancersAreAskedOnlyWhenTheRulesAreUnsure() {
        List<String> asked = new ArrayList<>();
        IntentEnhancer knn = (message, current) -> {
            asked.add(message);
            return Optional.of(new IntentResult(Intent.ORDER_PROBLEM, 0.9, "knn", List.of()));
        };
        IntentStep step = new IntentStep(new RuleIntentClassifier(), List.of(knn), 0.7);

        ChatContext vague = context("东西到了但是和图片不一样", DegradationLevel.L0);
        step.apply(vague, END);
        ChatContext clear = context("我要投诉", DegradationLevel.L0);
        step.apply(clear, END);

        assertThat(vague.intent().source()).isEqualTo("knn");
        assertThat(vague.priority()).isEqualTo(Priority.A);
        assertThat(clear.intent().intent()).isEqualTo(Intent.COMPLAINT);
        assertThat(asked).containsExactly("东西到了但是和图片不一样");
    }

    @Test
    void aCacheHitAnswersWithoutGoingFurther() {
        Answer cachedAnswer = new Answer("cached", FidelityTier.F4, List.of());
        SemanticCache cache = new SemanticCache() {
            @Override
            public Optional<Hit> lookup(ChatContext ctx) {
                return Optional.of(new Hit(cachedAnswer, 0.97));
            }

            @Override
            public void offer(ChatContext ctx) {
            }
        };
        StaticListableBeanFactory beans = new StaticListableBeanFactory(Map.of("cache", cache));
        AtomicBoolean wentOn = new AtomicBoolean();
        ChatContext ctx = context("q", DegradationLevel.L0);

        new CacheStep(beans.getBeanProvider(SemanticCache.class)).apply(ctx, c -> wentOn.set(true));

        assertThat(wentOn).isFalse();
        assertThat(ctx.cached()).isTrue();
        assertThat(ctx.cacheSimilarity()).isEqualTo(0.97);
    }

    @Test
    void anExactHitCarryingItsStoredIntentNeverClassifiesAndAMissClassifiesWhenAskedOnce() {
        List<String> asked = new ArrayList<>();
        IntentEnhancer knn = (message, current) -> {
            asked.add(message);
            return Optional.of(new IntentResult(Intent.ORDER_PROBLEM, 0.9, "knn", List.of()));
        };
        IntentStep intent = new IntentStep(new RuleIntentClassifier(), List.of(knn), 0.7);
        IntentResult stored = new IntentResult(Intent.RETURNS, 0.8, "cache", List.of());
        SemanticCache cache = new SemanticCache() {
            @Override
            public Optional<Hit> lookup(ChatContext ctx) {
                return ctx.message().equals("cached") ? Optional.of(new Hit(FAQ, 1.0, stored)) : Optional.empty();
            }

            @Override
            public void offer(ChatContext ctx) {
            }
        };
        CacheStep cacheStep = new CacheStep(new StaticListableBeanFactory(Map.of("cache", cache))
            .getBeanProvider(SemanticCache.class));
        ChatPipeline pipeline = new ChatPipeline(List.of(intent, cacheStep,
            (ctx, next) -> { ctx.priority(); ctx.intent(); ctx.answer(FAQ); }));

        ChatContext hit = context("cached", DegradationLevel.L0);
        pipeline.run(hit);
        assertThat(asked).isEmpty();
        assertThat(hit.intent()).isEqualTo(stored);
        assertThat(hit.priority()).isEqualTo(Intent.RETURNS.priority());

        ChatContext miss = context("东西到了但是和图片不一样", DegradationLevel.L0);
        pipeline.run(miss);
        assertThat(miss.intent().source()).isEqualTo("knn");
        assertThat(asked).containsExactly("东西到了但是和图片不一样");
    }

    @Test
    void tierCapsOnlyGoDown() {
        ChatContext ctx = context("q", DegradationLevel.L1);
        ctx.capTier(FidelityTier.F4, "would raise");
        assertThat(ctx.tierCap()).isEqualTo(FidelityTier.F3);
        ctx.capTier(FidelityTier.F1, "admission");
        assertThat(ctx.tierCap()).isEqualTo(FidelityTier.F1);
        assertThat(ctx.llmAllowed()).isFalse();
    }

    @Test
    void onlyTheFastPathIsLoggedAtDebugEverythingAnOperatorMayActOnStaysAtInfo() {
        Answer faq = new Answer("七天无理由退货。", FidelityTier.F1, List.of());
        Answer llm = new Answer("七天内可退。", FidelityTier.F4, List.of());
        ChatContext hit = context("能退货吗", DegradationLevel.L0);
        hit.cachedAnswer(llm, 1.0);
        ChatContext degradedHit = context("能退货吗", DegradationLevel.L2);
        degradedHit.cachedAnswer(llm, 1.0);
        ChatContext waited = context("能退货吗", DegradationLevel.L0);
        waited.queueWaitMs(40);
        ChatContext capped = context("能退货吗", DegradationLevel.L0);
        capped.capTier(FidelityTier.F1, "admission");

        assertThat(RecordStep.quiet(hit, llm)).isTrue();
        assertThat(RecordStep.quiet(context("能退货吗", DegradationLevel.L0), faq)).isTrue();
        assertThat(RecordStep.quiet(context("能退货吗", DegradationLevel.L0), llm)).isFalse(); // an LLM answer
        assertThat(RecordStep.quiet(degradedHit, llm)).isFalse();
        assertThat(RecordStep.quiet(waited, faq)).isFalse();
        assertThat(RecordStep.quiet(capped, faq)).isFalse();
    }
}
