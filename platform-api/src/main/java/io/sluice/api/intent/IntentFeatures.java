package io.sluice.api.intent;

import java.util.ArrayList;
import java.util.List;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.Scripts;

/**
 * What the trained intent model reads of a message, through the one embedding front (which normalises
 * case, width and script): the primary embedding; when an English model is configured, its embedding
 * of Latin-script messages (zeros for others — routed by script like retrieval); then the rules' score
 * of every sample intent. The same function serves training and the online decision, so they can
 * never disagree on features.
 */
public final class IntentFeatures {

    private final Embedder embedder;
    private final Embedder english;
    private final RuleIntentClassifier rules;

    /** @param english the English model for Latin-script messages, or null */
    public IntentFeatures(Embedder embedder, Embedder english, RuleIntentClassifier rules) {
        this.embedder = embedder;
        this.english = english;
        this.rules = rules;
    }

    public IntentFeatures(Embedder embedder, RuleIntentClassifier rules) {
        this(embedder, null, rules);
    }

    public int size() {
        return embedder.dimension() + (english == null ? 0 : english.dimension()) + RuleIntentClassifier.FEATURES;
    }

    /** The embedding models the features come from (a model trained on others is not used). */
    public String embedderId() {
        return english == null ? embedder.modelId() : embedder.modelId() + "+" + english.modelId();
    }

    public float[] of(String message) {
        float[] en = english != null && Scripts.latin(message) ? english.embed(message) : null;
        return join(embedder.embed(message), en, rules.features(message));
    }

    /** Features of many messages, embedded in batches. */
    public List<float[]> ofAll(List<String> messages) {
        List<float[]> out = new ArrayList<>(messages.size());
        for (int from = 0; from < messages.size(); from += 64) {
            List<String> batch = messages.subList(from, Math.min(messages.size(), from + 64));
            List<float[]> vectors = embedder.embedAll(batch);
            List<float[]> en = new ArrayList<>();
            if (english != null) {
                List<String> latin = batch.stream().filter(Scripts::latin).toList();
                List<float[]> embedded = latin.isEmpty() ? List.of() : english.embedAll(latin);
                int next = 0;
                for (String text : batch) {
                    en.add(Scripts.latin(text) ? embedded.get(next++) : null);
                }
            }
            for (int i = 0; i < batch.size(); i++) {
                out.add(join(vectors.get(i), english == null ? null : en.get(i), rules.features(batch.get(i))));
            }
        }
        return out;
    }

    private float[] join(float[] embedding, float[] en, float[] ruleScores) {
        int englishSize = english == null ? 0 : english.dimension();
        float[] x = new float[embedding.length + englishSize + ruleScores.length];
        System.arraycopy(embedding, 0, x, 0, embedding.length);
        if (en != null) {
            System.arraycopy(en, 0, x, embedding.length, en.length);
        }
        System.arraycopy(ruleScores, 0, x, embedding.length + englishSize, ruleScores.length);
        return x;
    }
}
