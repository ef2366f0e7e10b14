package io.sluice.governance.gateway;

import java.util.List;

/** What an embedding call ended with; provider trouble is never an exception. */
public sealed interface EmbeddingOutcome {

    /** One vector per input, in order. */
    record Embedded(List<float[]> vectors, String model, String provider, int promptTokens) implements EmbeddingOutcome {
    }

    /** Not embedded: {@code reason} is the same Saturated/Degraded a chat call would get. */
    record Refused(LlmOutcome reason) implements EmbeddingOutcome {
    }
}
