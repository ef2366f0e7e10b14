package io.sluice.api.intent;

import java.util.List;
import java.util.Objects;

/**
 * A classification.
 *
 * @param code       the intent's key: a sample {@link Intent}'s code ({@code complaint}) or an intent of
 *                   the operator's taxonomy ({@code card_lost}), {@code out_of_domain} when unlike all
 * @param priority   the admission class it maps to
 * @param confidence 0..1, how sure the classifier is (calibrated for the trained model)
 * @param source     which classifier decided ("rules", "knn", "model", "llm")
 * @param evidence   what it matched (keywords, the model's reason), for logs and the console
 */
public record IntentResult(String code, Priority priority, double confidence, String source, List<String> evidence) {

    public IntentResult {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(priority, "priority");
        evidence = List.copyOf(evidence);
    }

    public IntentResult(Intent intent, double confidence, String source, List<String> evidence) {
        this(intent.code(), intent.priority(), confidence, source, evidence);
    }

    /** The sample intent this result names, or null when it is an intent of the operator's taxonomy. */
    public Intent intent() {
        for (Intent intent : Intent.values()) {
            if (intent.code().equals(code)) {
                return intent;
            }
        }
        return null;
    }
}
