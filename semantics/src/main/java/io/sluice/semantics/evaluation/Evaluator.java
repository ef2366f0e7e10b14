package io.sluice.semantics.evaluation;

import java.util.List;

/**
 * Measures one semantic decision on a labelled set the operator supplies, through the exact online
 * path (the same code the chat runs), never a copy of it. One bean per kind; the evaluation API and
 * command dispatch on {@link #kind()}.
 *
 * <p>Kinds: {@code intent} (messages labelled with an intent or a priority class), {@code cache-pairs}
 * (question pairs labelled same / different answer), {@code faq-queries} (questions labelled with
 * the FAQ entry key that answers them, or none for out-of-domain).
 */
public interface Evaluator {

    /** The kind of labelled file this evaluator reads (a stable name used in the API). */
    String kind();

    /** What one line of the file must hold, for error messages and the docs (e.g. "text, intent"). */
    String expectedFields();

    /**
     * Evaluates the labelled items. Each item is one parsed line of the operator's file (CSV columns
     * or JSONL fields by name, values as strings).
     *
     * @throws IllegalArgumentException when an item lacks a required field or holds an unknown label;
     *         the message names the item's position, never echoes its text
     */
    EvaluationReport evaluate(List<java.util.Map<String, String>> items);
}
