package io.sluice.knowledge.embedding;

import io.sluice.knowledge.text.TextNormalizer;
import java.util.List;

/**
 * The embedding front: every text is normalised ({@link TextNormalizer}) before the model sees it, so
 * every caller (cache, intent, retrieval, FAQ snapshot, ingestion) embeds the same way. The model id
 * names the normalisation too, so vectors made from raw text (an older snapshot) are never mixed in.
 */
public class NormalizingEmbedder implements Embedder {

    /** Appended to the model id; bump it when the normalisation changes so stored vectors are rebuilt. */
    static final String NORMALIZATION = "+nfkc-cf-hans";

    private final Embedder delegate;

    public NormalizingEmbedder(Embedder delegate) {
        this.delegate = delegate;
    }

    @Override
    public int dimension() {
        return delegate.dimension();
    }

    @Override
    public String modelId() {
        return delegate.modelId() + NORMALIZATION;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        return delegate.embedAll(texts.stream().map(TextNormalizer::normalize).toList());
    }

    @Override
    public float[] embed(String text) {
        return delegate.embed(TextNormalizer.normalize(text));
    }

    public Embedder delegate() {
        return delegate;
    }
}
