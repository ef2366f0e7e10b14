package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.List;

/**
 * Texts to embed, on the gateway's embedding lane (its own permits {@code sluice.permits.lanes.embedding}
 * and budget {@code sluice.gateway.embeddings.*}).
 *
 * @param route  a configured route (null = {@code sluice.gateway.embeddings.route})
 * @param inputs the texts (at least one)
 * @param budget total time, failover included (null = the lane's)
 */
public record EmbeddingRequest(String route, List<String> inputs, Duration budget) {

    public EmbeddingRequest {
        inputs = List.copyOf(inputs);
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("an embedding request needs at least one input");
        }
    }
}
