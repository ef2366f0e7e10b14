package io.sluice.governance.provider;

import java.time.Duration;
import java.util.List;

import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmParameters;

import tools.jackson.databind.JsonNode;

/** One attempt at one provider; no policy here (the gateway owns retries, limits and failover). */
public interface ProviderClient extends AutoCloseable {

    /**
     * What is sent: the provider's model name, the messages, the completion cap and every generation
     * parameter (verbatim).
     */
    record Call(String model, List<LlmMessage> messages, int maxTokens, LlmParameters parameters) {
        public Call {
            messages = List.copyOf(messages);
            parameters = parameters == null ? LlmParameters.NONE : parameters;
        }
    }

    /** Blocks at most {@code timeout}; a hung provider yields {@code Failed(TIMEOUT)} and its call is cancelled. */
    ProviderResult call(Call call, Duration timeout);

    /** Starts a stream; exactly one of {@code onComplete}/{@code onError} ends it unless cancelled first. */
    Cancellable stream(Call call, StreamHandler handler);

    /** Embeddings of {@code inputs} ({@code POST /embeddings}), within {@code timeout}. */
    default EmbeddingResult embed(String model, List<String> inputs, Duration timeout) {
        return new EmbeddingResult.Failed(new ProviderResult.Failed(ProviderResult.Kind.CLIENT_ERROR,
            "this provider does not serve embeddings", RateLimitInfo.NONE));
    }

    @Override
    void close();

    interface Cancellable {
        void cancel();
    }

    interface StreamHandler {
        void onToken(String token);

        /** A {@code tool_calls} delta of the first choice. */
        default void onToolCalls(JsonNode delta) {
        }

        /**
         * The provider ended the stream; {@code finishReason} is null when it ended without one (cut).
         */
        void onComplete(int promptTokens, int completionTokens, String finishReason);

        void onError(ProviderResult failure);
    }

    /** What an embeddings attempt ended with. */
    sealed interface EmbeddingResult {
        record Embedded(List<float[]> vectors, int promptTokens, RateLimitInfo rateLimit) implements EmbeddingResult {
        }

        record Failed(ProviderResult failure) implements EmbeddingResult {
        }
    }
}
