package io.sluice.semantics.intent;

/** One example message and the intent key it belongs to. */
public record LabelledText(String text, String intent) {
}
