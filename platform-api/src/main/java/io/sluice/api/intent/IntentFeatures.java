package io.sluice.api.intent;

import java.util.ArrayList;
import java.util.List;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.Scripts;

/**
 * What the trained intent model reads of a message, through the one embedding front (which normalises
 * case, width and script), routed by script like retrieval: a Latin-script message is embedded by the
 * English model when one is configured (the main model's part stays zero), any other by the main
 * model (the English part stays zero) — one embedding per message; then the rules' score of every
 * sample intent. The same function serves training and the online decision, so they can
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
        if (english != null && Scripts.latin(message)) {
            return join(null, english.embed(message), rules.features(message));   // routed: one model per message
        }
        return join(embedder.embed(message), null, rules.features(message));
    }

    /** Features of many messages, embedded in batches. */
    public List<float[]> ofAll(List<String> messages) {
        List<float[]> out = new ArrayList<>(messages.size());
        for (int from = 0; from < messages.size(); from += 64) {
            List<String> batch = messages.subList(from, Math.min(messages.size(), from + 64));
            List<String> latin = english == null ? List.of() : batch.stream().filter(Scripts::latin).toList();
            List<String> other = english == null ? batch : batch.stream().filter(t -> !Scripts.latin(t)).toList();
            List<float[]> en = latin.isEmpty() ? List.of() : english.embedAll(latin);
            List<float[]> main = other.isEmpty() ? List.of() : embedder.embedAll(other);
            int nextLatin = 0;
            int nextOther = 0;
            for (String text : batch) {
                boolean routedToEnglish = english != null && Scripts.latin(text);
                out.add(routedToEnglish ? join(null, en.get(nextLatin++), rules.features(text))
                    : join(main.get(nextOther++), null, rules.features(text)));
            }
        }
        return out;
    }

    private float[] join(float[] embedding, float[] en, float[] ruleScores) {
        int englishSize = english == null ? 0 : english.dimension();
        int mainSize = embedder.dimension();
        float[] x = new float[mainSize + englishSize + ruleScores.length];
        if (embedding != null) {
            System.arraycopy(embedding, 0, x, 0, embedding.length);
        }
        if (en != null) {
            System.arraycopy(en, 0, x, mainSize, en.length);
        }
        System.arraycopy(ruleScores, 0, x, mainSize + englishSize, ruleScores.length);
        return x;
    }
}
