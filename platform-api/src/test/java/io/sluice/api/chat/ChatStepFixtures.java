package io.sluice.api.chat;

import java.time.Duration;
import java.util.List;

import io.sluice.api.ingress.LoadMonitor;
import io.sluice.api.session.SessionContext;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.support.FaqTestBed;
import io.sluice.semantics.relevance.RelevanceModel;

import org.springframework.beans.factory.support.StaticListableBeanFactory;

/** What the chat step tests build alike: LLM access over a fake gateway, a question's context, a stream. */
final class ChatStepFixtures {

    private ChatStepFixtures() {
    }

    /** LLM access whose only gateway is {@code gateway} (the tests' fake). */
    static LlmAccess llmAccess(LlmGateway gateway) {
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("gateway", gateway);
        return new LlmAccess(beans.getBeanProvider(LlmGateway.class));
    }

    /**
     * The tiered answer step over a real FAQ bed: F1 from {@code f1}, passages from the bed's chain under the
     * relevance bars, the LLM from {@code gateway}; default properties, a monitor that never sees load, no
     * deferred answers.
     */
    static TieredAnswerStep tieredAnswering(FaqAnsweringStep f1, FaqTestBed bed, RelevanceModel relevance,
            LlmGateway gateway) {
        PassageRetriever retriever = (q, k) -> bed.chain.retrieve(q, relevance.apply(FaqTestBed.PLAN.withTopK(k)));
        return new TieredAnswerStep(f1, retriever, llmAccess(gateway), new LoadMonitor(100, Duration.ofMinutes(1)),
            ChatProperties.defaults(), null);
    }

    /** {@code question} from user u1 of the test client, in a fresh session, at {@code level}. */
    static ChatContext question(String question, DegradationLevel level) {
        ChatContext ctx = new ChatContext(TieredAnswerStepTest.CLIENT, new ChatRequest("u1", null, question, null));
        ctx.session(SessionContext.fresh());
        ctx.level(level, TieredAnswerStepTest.KNOBS.get(level));
        return ctx;
    }

    /**
     * A stream that keeps what a client would see in {@code events}: every token and, with {@code meta}, a
     * "meta &lt;tier&gt;" entry where the answer begins.
     */
    static AnswerStream recording(List<String> events, boolean meta) {
        return new AnswerStream() {
            boolean begun;

            @Override
            public void begin(ChatContext c, FidelityTier tier, List<ChatResponse.Source> sources) {
                begun = true;
                if (meta) {
                    events.add("meta " + tier);
                }
            }

            @Override
            public void token(String text) {
                events.add(text);
            }

            @Override
            public boolean begun() {
                return begun;
            }
        };
    }
}
