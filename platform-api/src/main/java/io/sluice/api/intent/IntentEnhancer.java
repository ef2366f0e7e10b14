package io.sluice.api.intent;

import java.util.Optional;

/**
 * Seam for the classifiers that come after the rules: the embedding nearest-neighbour classifier
 * over labelled examples ({@link KnnIntentClassifier}), and the budgeted LLM classifier on the
 * gateway's intent lane ({@link LlmIntentEnhancer}). Every bean of this type enabled for the request's
 * path is asked in order while the current result's confidence is below the step's threshold;
 * empty = no opinion (keep what we have). Must never throw for provider trouble.
 */
public interface IntentEnhancer {

    Optional<IntentResult> refine(String message, IntentResult current);

    /** The source name of its results and the metric tag ("knn", "llm"). */
    default String name() {
        return getClass().getSimpleName();
    }

    /** Whether it is asked for messages that came in on {@code path}. */
    default boolean enabledFor(IntentPath path) {
        return true;
    }
}
