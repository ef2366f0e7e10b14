package io.sluice.api.intent;

import java.util.ArrayList;
import java.util.List;

import io.sluice.knowledge.embedding.Embedder;

/**
 * What the trained intent model reads of a message: its embedding (through the one embedding front,
 * which normalises case, width and script) followed by the rules' score of every sample intent. The
 * same function serves training and the online decision, so they can never disagree on features.
 */
public final class IntentFeatures {

    private final Embedder embedder;
    private final RuleIntentClassifier rules;

    public IntentFeatures(Embedder embedder, RuleIntentClassifier rules) {
        this.embedder = embedder;
        this.rules = rules;
    }

    public int size() {
        return embedder.dimension() + RuleIntentClassifier.FEATURES;
    }

    public String embedderId() {
        return embedder.modelId();
    }

    public float[] of(String message) {
        return join(embedder.embed(message), rules.features(message));
    }

    /** Features of many messages, embedded in batches. */
    public List<float[]> ofAll(List<String> messages) {
        List<float[]> out = new ArrayList<>(messages.size());
        for (int from = 0; from < messages.size(); from += 64) {
            List<String> batch = messages.subList(from, Math.min(messages.size(), from + 64));
            List<float[]> vectors = embedder.embedAll(batch);
            for (int i = 0; i < batch.size(); i++) {
                out.add(join(vectors.get(i), rules.features(batch.get(i))));
            }
        }
        return out;
    }

    private static float[] join(float[] embedding, float[] ruleScores) {
        float[] x = new float[embedding.length + ruleScores.length];
        System.arraycopy(embedding, 0, x, 0, embedding.length);
        System.arraycopy(ruleScores, 0, x, embedding.length, ruleScores.length);
        return x;
    }
}
