package io.sluice.api.intent;

import java.util.Locale;

/** What a customer message is about, and the priority class it maps to. */
public enum Intent {
    COMPLAINT(Priority.S),
    URGENT(Priority.S),
    /** A payment that went wrong (double charge, failed, declined). */
    PAYMENT(Priority.A),
    REFUND(Priority.A),
    ORDER_PROBLEM(Priority.A),
    /** A question about paying (methods, instalments) — nothing wrong yet. */
    PAYMENT_INFO(Priority.B),
    /** A question about an order (status, change) — nothing wrong yet. */
    ORDER_INFO(Priority.B),
    LOGISTICS(Priority.B),
    RETURNS(Priority.B),
    ACCOUNT(Priority.B),
    PROMOTION(Priority.B),
    GENERAL(Priority.B);

    private final Priority priority;

    Intent(Priority priority) {
        this.priority = priority;
    }

    public Priority priority() {
        return priority;
    }

    /** The wire name: lower case, e.g. {@code order_problem}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
