package io.sluice.knowledge.embedding;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A small LRU in front of another embedder for repeated queries; batch calls pass straight through. */
public class CachingEmbedder implements Embedder {

    private final Embedder delegate;
    private final Map<String, float[]> lru;

    public CachingEmbedder(Embedder delegate, int capacity) {
        this.delegate = delegate;
        int max = Math.max(1, capacity);
        this.lru = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                return size() > max;
            }
        };
    }

    @Override
    public int dimension() {
        return delegate.dimension();
    }

    @Override
    public String modelId() {
        return delegate.modelId();
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        return delegate.embedAll(texts);
    }

    @Override
    public float[] embed(String text) {
        synchronized (lru) {
            float[] hit = lru.get(text);
            if (hit != null) {
                return hit.clone();
            }
        }
        float[] v = delegate.embed(text);
        synchronized (lru) {
            lru.put(text, v.clone());
        }
        return v;
    }

    public int cachedQueries() {
        synchronized (lru) {
            return lru.size();
        }
    }

    public Embedder delegate() {
        return delegate;
    }
}
