package io.sluice.api.intent;

import java.util.List;
import java.util.Objects;

/**
 * A classification.
 *
 * @param intent     what the message is about
 * @param confidence 0..1, how sure the classifier is
 * @param source     which classifier decided ("rules", later "knn", "llm")
 * @param evidence   what it matched (keywords), for logs and the console
 */
public record IntentResult(Intent intent, double confidence, String source, List<String> evidence) {

    public IntentResult {
        Objects.requireNonNull(intent, "intent");
        evidence = List.copyOf(evidence);
    }

    public Priority priority() {
        return intent.priority();
    }
}
