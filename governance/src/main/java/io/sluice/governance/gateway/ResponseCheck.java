package io.sluice.governance.gateway;

/**
 * Decides whether a provider's answer is usable. An unusable answer is a failure like a 5xx: it is
 * retried within the budget, counts for the breaker, and ends as {@code Degraded(UNPARSABLE)}.
 */
@FunctionalInterface
public interface ResponseCheck {

    /** Accepts any non-blank text. */
    /** Any answer will do (the front door: the client judges it). */
    ResponseCheck ANY = text -> null;

    ResponseCheck NON_EMPTY = text -> text == null || text.isBlank() ? "empty answer" : null;

    /** @return null when the text is usable, else a short reason */
    String problem(String text);
}
