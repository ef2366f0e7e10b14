package io.sluice.api.intent;

import java.util.Optional;

/**
 * Seam for the classifiers that come after the rules: the embedding nearest-neighbour classifier
 * over labelled examples, and the budgeted LLM classifier on the gateway's intent lane. Every bean of
 * this type is asked in order while the current result's confidence is below the step's threshold;
 * empty = no opinion (keep what we have). Must never throw for provider trouble.
 */
public interface IntentEnhancer {

    Optional<IntentResult> refine(String message, IntentResult current);
}
