package io.sluice.api.chat;

import java.time.Duration;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Online chat ({@code sluice.chat.*}; admission and session have their own sub-keys).
 *
 * @param intentConfidentAbove rules results at least this confident skip the intent enhancers
 * @param fastRoute            gateway route for F2 (FAQ answer polished by the light model); blank = lane default
 * @param fastMaxTokens        completion cap of F2 (further capped by the level's max_tokens)
 * @param historyTurns         earlier turns of the session put into an LLM prompt (F4; F3 gets a third)
 * @param streamTimeout        longest an SSE chat stream may stay open
 * @param streamWorkers        SSE streams open at once on this instance (more: 429); each runs on a virtual
 *                             thread, so this is a bound on sockets, not a thread pool
 * @param answerBudget         total time the answering step may spend on LLM calls, step-downs included
 * @param minCallBudget        a tier is tried only if at least this much of the budget is left
 * @param fullPassageChars     longest passage text put into the F4 prompt
 * @param leanPassages         passages in the F3 prompt (further capped by the level's top-k)
 * @param leanPassageChars     longest passage text in the F3 prompt
 * @param leanMaxTokens        completion cap of F3 (further capped by the level's max_tokens)
 * @param loadWindow           LLM latencies and failures are judged over this window (limiter, level)
 */
@Validated
@ConfigurationProperties("sluice.chat")
public record ChatProperties(@DefaultValue("0.7") double intentConfidentAbove, @DefaultValue("") String fastRoute,
        @DefaultValue("256") @Min(1) int fastMaxTokens, @DefaultValue("6") @Min(0) int historyTurns,
        @DefaultValue("60s") Duration streamTimeout, @DefaultValue("10000") @Min(1) int streamWorkers,
        @DefaultValue("6s") Duration answerBudget, @DefaultValue("300ms") Duration minCallBudget,
        @DefaultValue("1200") @Min(50) int fullPassageChars, @DefaultValue("2") @Min(1) int leanPassages,
        @DefaultValue("300") @Min(50) int leanPassageChars, @DefaultValue("384") @Min(1) int leanMaxTokens,
        @DefaultValue("30s") Duration loadWindow) {

    /** The defaults, with the given stream settings (tests). */
    public static ChatProperties defaults() {
        return new ChatProperties(0.7, "", 256, 6, Duration.ofSeconds(60), 10000, Duration.ofSeconds(6),
            Duration.ofMillis(300), 1200, 2, 300, 384, Duration.ofSeconds(30));
    }
}
