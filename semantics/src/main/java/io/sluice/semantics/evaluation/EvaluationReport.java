package io.sluice.semantics.evaluation;

import java.time.Instant;
import java.util.Map;

/**
 * The outcome of one evaluation.
 *
 * @param kind     which evaluator produced it
 * @param items    how many labelled items were measured
 * @param metrics  headline figures by name (accuracy, precision, recall, hit@1, s-to-b-rate, ...)
 * @param details  everything else as JSON (confusion matrix, per-class figures, curves, misses)
 * @param modelVersion the stored model version evaluated (0 = the built-in default)
 */
public record EvaluationReport(String kind, int items, Map<String, Double> metrics, String details,
        long modelVersion, Instant createdAt) {
}
