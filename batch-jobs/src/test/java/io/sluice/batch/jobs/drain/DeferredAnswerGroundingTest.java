package io.sluice.batch.jobs.drain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.sluice.batch.queue.ClaimedItem;
import io.sluice.batch.yield.BatchLaneThrottle;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.knowledge.answer.AnswerLanguage;
import io.sluice.knowledge.answer.NoAnswer;
import io.sluice.knowledge.chain.Freshness;
import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalResult;
import io.sluice.knowledge.chain.Source;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/**
 * A deferred answer's prompt is grounded like the online F4 tier (the retrieved passages, the rule never to
 * invent policies), and a question nothing relevant was found for gets the honest no-answer without any
 * model call. The chain is a stand-in here; the end-to-end test (app, GroundedAnswersEndToEndTest) runs the
 * real one.
 */
class DeferredAnswerGroundingTest {

    static ClaimedItem item(String question) {
        return new ClaimedItem(1, UUID.randomUUID(), "default", "deferred_answer", 3,
            "{\"question\": \"" + question + "\"}", 1, 5, "worker", UUID.randomUUID());
    }

    static final Passage SHIPPING = new Passage("vector:pgvector", 0.83, "非质量问题退货，运费由买家承担。", null, "returns",
        new Source("returns-policy", "退货政策", "运费", null, null), new Freshness(Instant.now(), null));

    @Test
    void thePromptCarriesTheRetrievedPassagesAndForbidsInventingPolicies() {
        PromptBuilder builder = new PromptBuilder(null, 12000,
            q -> new RetrievalResult(q, List.of(SHIPPING), "vector:pgvector", List.of(), 1, 1), 1200);

        PromptBuilder.Prompt prompt = builder.build(item("退货的运费谁来出"));

        assertThat(prompt.direct()).isNull();
        LlmMessage system = prompt.messages().get(0);
        assertThat(system.content()).contains("[1] 退货政策 › 运费", "非质量问题退货，运费由买家承担。",
            "Never invent policies, amounts or dates", AnswerLanguage.CHINESE_SIMPLIFIED.instruction());
        assertThat(prompt.messages().get(1).content()).isEqualTo("退货的运费谁来出");
    }

    @Test
    void nothingRelevantIsTheHonestNoAnswerWithoutAskingTheModel() throws Exception {
        PromptBuilder builder = new PromptBuilder(null, 12000,
            q -> new RetrievalResult(q, List.of(), null, List.of(), 1, 1), 1200);
        // no gateway at all: the item must not need one
        DrainItemProcessor processor = new DrainItemProcessor(
            new StaticListableBeanFactory().getBeanProvider(LlmGateway.class), builder,
            new BatchLaneThrottle(1, 1, 0.85, 0.5), 256, Duration.ofSeconds(1), Duration.ofSeconds(1));

        DrainResult result = processor.process(item("What is the weather on Mars?"));

        assertThat(result).isInstanceOfSatisfying(DrainResult.Completed.class, c -> {
            assertThat(c.text()).isEqualTo(NoAnswer.text(AnswerLanguage.ENGLISH));
            assertThat(c.model()).isEqualTo(PromptBuilder.NO_ANSWER_MODEL);
        });
    }

    @Test
    void withoutAKnowledgeBaseThePromptStillForbidsInventingPolicies() {
        PromptBuilder.Prompt prompt = new PromptBuilder(null, 12000).build(item("How long is the return period?"));
        assertThat(prompt.direct()).isNull();
        assertThat(prompt.messages().get(0).content()).contains("Never invent policies", "Answer in English.");
    }
}
