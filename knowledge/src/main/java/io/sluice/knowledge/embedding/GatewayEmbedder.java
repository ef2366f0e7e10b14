package io.sluice.knowledge.embedding;

import java.util.ArrayList;
import java.util.List;

/**
 * Embeddings from a remote model ({@code sluice.knowledge.embedding.provider: openai}), through the gateway's
 * embedding lane ({@link RemoteEmbeddings}): never a direct call to an endpoint. Vectors are normalized; the
 * configured dimension must match the model's.
 */
public class GatewayEmbedder implements Embedder {

    private final RemoteEmbeddings remote;
    private final String route;
    private final int dimension;
    private final int batchSize;

    /** @param route the gateway route of the model (null or blank = the embedding lane's route) */
    public GatewayEmbedder(RemoteEmbeddings remote, String route, int dimension, int batchSize) {
        this.remote = remote;
        this.route = route == null || route.isBlank() ? null : route;
        this.dimension = dimension;
        this.batchSize = Math.max(1, batchSize);
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public String modelId() {
        return "gateway:" + (route == null ? "embedding" : route);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += batchSize) {
            List<String> batch = texts.subList(from, Math.min(texts.size(), from + batchSize));
            List<float[]> vectors = remote.embed(route, batch);
            if (vectors.size() != batch.size()) {
                throw new EmbeddingException("the embedding lane returned " + vectors.size() + " vectors for "
                    + batch.size() + " inputs");
            }
            for (float[] v : vectors) {
                if (v.length != dimension) {
                    throw new EmbeddingException("the embedding model returned " + v.length + " dimensions, configured "
                        + dimension);
                }
                out.add(Vectors.normalize(v));
            }
        }
        return out;
    }
}
