package io.sluice.knowledge.embedding;

import java.util.List;

/**
 * The port through which the remote embedder reaches a provider. Knowledge does not know the gateway
 * (docs/architecture.md: governance and knowledge know nothing of each other); the application implements
 * this over the gateway's embedding lane, so remote embeddings get its permits, budget, failover and metrics.
 */
@FunctionalInterface
public interface RemoteEmbeddings {

    /**
     * @param route  the gateway route (key, alias or model name); null = the embedding lane's route
     * @param inputs the texts, in order
     * @return one raw vector per input, in order
     * @throws EmbeddingException when the gateway refused or no provider could answer
     */
    List<float[]> embed(String route, List<String> inputs);
}
