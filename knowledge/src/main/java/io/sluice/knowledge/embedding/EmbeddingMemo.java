package io.sluice.knowledge.embedding;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A process-wide, bounded memo of model inference: the same text through the same model is embedded
 * once per process. Re-indexing, snapshot rebuilds and a second application context in one JVM (the
 * test suite starts many) hand the model texts it has already seen; inference is the CPU cost that
 * dominates those paths. Least recently used entries go first; vectors are copied in and out.
 */
final class EmbeddingMemo {

    /** About 8 MB of 512-dimension vectors. */
    static final int DEFAULT_CAPACITY = 4096;

    static final EmbeddingMemo SHARED = new EmbeddingMemo(DEFAULT_CAPACITY);

    private final Map<String, float[]> entries;

    EmbeddingMemo(int capacity) {
        int max = Math.max(1, capacity);
        this.entries = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                return size() > max;
            }
        };
    }

    static String key(String modelId, String text) {
        return modelId + '\u0000' + text;
    }

    synchronized float[] get(String key) {
        float[] v = entries.get(key);
        return v == null ? null : v.clone();
    }

    synchronized void put(String key, float[] vector) {
        entries.put(key, vector.clone());
    }

    synchronized int size() {
        return entries.size();
    }
}
