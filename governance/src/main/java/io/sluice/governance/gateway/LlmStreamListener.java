package io.sluice.governance.gateway;

/** Receives a stream's events; exactly one of {@code onComplete} / {@code onEnd} ends it. */
public interface LlmStreamListener {

    void onToken(String token);

    /** The stream finished cleanly. */
    void onComplete(LlmOutcome.Answered answered);

    /** The stream did not finish: refused, failed, cut by the provider midway, or cancelled. */
    void onEnd(LlmOutcome outcome);
}
