package io.sluice.governance.gateway;

/** Receives a stream's events; exactly one of {@code onComplete} / {@code onEnd} ends it. */
public interface LlmStreamListener {

    void onToken(String token);

    /** A streamed {@code tool_calls} delta, as the provider sent it (most callers ignore it). */
    default void onToolCalls(tools.jackson.databind.JsonNode toolCallsDelta) {
    }

    /** The stream finished cleanly. */
    void onComplete(LlmOutcome.Answered answered);

    /** The stream did not finish: refused, failed, cut by the provider midway, or cancelled. */
    void onEnd(LlmOutcome outcome);
}
