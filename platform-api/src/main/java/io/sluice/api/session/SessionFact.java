package io.sluice.api.session;

/**
 * One key fact of a session, extracted by rules from the masked exchange ({@code io.sluice.api.memory.FactExtractor}).
 *
 * @param kind      {@code order} (an order or tracking number), {@code entity} (a product or code),
 *                  {@code complaint} (what the customer complained about), {@code promise} (what the answer promised)
 * @param text      the fact as written (masked), at most a sentence
 * @param atEpochMs when it was said
 */
public record SessionFact(String kind, String text, long atEpochMs) {
}
