package io.sluice.batch.jobs.drain;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.sluice.batch.queue.ClaimedItem;
import io.sluice.batch.tasks.TaskType;
import io.sluice.batch.yield.BatchLaneThrottle;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmParameters;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.gateway.RequestType;

import org.springframework.batch.infrastructure.item.ItemProcessor;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Calls the gateway on the BATCH lane for one claimed item, inside a slot of the
 * {@link BatchLaneThrottle}. Provider trouble never throws: Saturated puts the item back without using
 * an attempt, Degraded (or an empty answer) is a failed attempt with its reason. Items that can never
 * succeed throw {@link PoisonItemException} and are skipped to dead-letter.
 */
public class DrainItemProcessor implements ItemProcessor<ClaimedItem, DrainResult> {

    private final ObjectProvider<LlmGateway> gateway;
    private final PromptBuilder prompts;
    private final BatchLaneThrottle throttle;
    private final int maxTokens;
    private final Duration saturatedDelay;
    private final Duration throttleWait;
    private final ObjectProvider<DegradationControl> degradation;

    public DrainItemProcessor(ObjectProvider<LlmGateway> gateway, PromptBuilder prompts, BatchLaneThrottle throttle,
            int maxTokens, Duration saturatedDelay, Duration throttleWait) {
        this(gateway, prompts, throttle, maxTokens, saturatedDelay, throttleWait, null);
    }

    /** @param degradation the level whose batch-lane temperature / top_p the calls use (null or absent: none sent) */
    public DrainItemProcessor(ObjectProvider<LlmGateway> gateway, PromptBuilder prompts, BatchLaneThrottle throttle,
            int maxTokens, Duration saturatedDelay, Duration throttleWait, ObjectProvider<DegradationControl> degradation) {
        this.degradation = degradation;
        this.gateway = gateway;
        this.prompts = prompts;
        this.throttle = throttle;
        this.maxTokens = maxTokens;
        this.saturatedDelay = saturatedDelay;
        this.throttleWait = throttleWait;
    }

    @Override
    public DrainResult process(ClaimedItem item) throws Exception {
        PromptBuilder.Prompt prompt = prompts.build(item);
        if (prompt.direct() != null) {
            // nothing relevant in the knowledge base: the honest no-answer, no model asked to guess
            return new DrainResult.Completed(item, prompt.subject(), prompt.direct(), PromptBuilder.NO_ANSWER_MODEL);
        }
        LlmGateway llm = gateway.getIfAvailable();
        if (llm == null) {
            return new DrainResult.Failed(item, "no LLM gateway is configured on worker " + item.owner());
        }
        if (!throttle.acquire(throttleWait.toMillis(), TimeUnit.MILLISECONDS)) {
            return new DrainResult.Requeued(item, saturatedDelay, "batch lane yielding to interactive traffic");
        }
        LlmOutcome outcome;
        try {
            outcome = llm.call(new LlmRequest(Lane.BATCH, null, prompt.messages(), maxTokens, null, null, sampling(),
                requestType(item.type())));
        } finally {
            throttle.release();
        }
        if (outcome instanceof LlmOutcome.Answered answered) {
            if (answered.text() == null || answered.text().isBlank()) {
                return new DrainResult.Failed(item, "the model returned an empty answer (" + answered.model() + ")");
            }
            return new DrainResult.Completed(item, prompt.subject(), answered.text().strip(), answered.model());
        }
        if (outcome instanceof LlmOutcome.Saturated saturated) {
            Duration delay = saturated.retryAfter() != null && !saturated.retryAfter().isZero()
                ? saturated.retryAfter() : saturatedDelay;
            return new DrainResult.Requeued(item, delay, "batch lane saturated: " + saturated.reason());
        }
        LlmOutcome.Degraded degraded = (LlmOutcome.Degraded) outcome;
        return new DrainResult.Failed(item,
            "LLM degraded: " + degraded.reason() + (degraded.detail() == null ? "" : ": " + degraded.detail()));
    }

    /** What a queued item's call is for, for the token allocation by type. */
    static RequestType requestType(String taskType) {
        return TaskType.fromWire(taskType).map(t -> switch (t) {
            case SUMMARIZE_CONVERSATION, SUMMARIZE_DOCUMENT -> RequestType.SUMMARY;
            case DEFERRED_ANSWER -> RequestType.DEFERRED_ANSWER;
        }).orElse(RequestType.OTHER);
    }

    /** The level's batch-lane temperature / top_p (the one level→knobs map). */
    private LlmParameters sampling() {
        DegradationControl control = degradation == null ? null : degradation.getIfAvailable();
        return control == null ? LlmParameters.NONE : control.knobs().parameters(Lane.BATCH, LlmParameters.NONE);
    }
}
