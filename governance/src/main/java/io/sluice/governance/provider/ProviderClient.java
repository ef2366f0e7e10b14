package io.sluice.governance.provider;

import java.time.Duration;
import java.util.List;

import io.sluice.governance.gateway.LlmMessage;

/** One attempt at an OpenAI-compatible provider; no policy here (the gateway owns retries and limits). */
public interface ProviderClient extends AutoCloseable {

    /** Blocks at most {@code timeout}; a hung provider yields {@code Failed(TIMEOUT)} and its call is cancelled. */
    ProviderResult call(String model, List<LlmMessage> messages, int maxTokens, Duration timeout);

    /** Starts a stream; exactly one of {@code onComplete}/{@code onError} ends it unless cancelled first. */
    Cancellable stream(String model, List<LlmMessage> messages, int maxTokens, StreamHandler handler);

    @Override
    void close();

    interface Cancellable {
        void cancel();
    }

    interface StreamHandler {
        void onToken(String token);

        /** The provider ended the stream; {@code finished} is false when it ended without a finish reason (cut). */
        void onComplete(int promptTokens, int completionTokens, boolean finished);

        void onError(ProviderResult failure);
    }
}
