package io.sluice.api.intent;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The labels of the shipped intent examples ({@code intent-examples.tsv}). They are coarser than
 * {@link Intent}: the examples come from the FAQ categories, so "payment" holds both payment questions
 * and payments that went wrong, "returns" holds refunds, "order_problem" every order question. A label
 * therefore names a family of intents and the one it stands for on its own (its namesake, which fixes
 * the priority class: payment and order_problem → A).
 */
public enum ExampleLabel {
    COMPLAINT(Intent.COMPLAINT),
    URGENT(Intent.URGENT),
    PAYMENT(Intent.PAYMENT, Intent.PAYMENT_INFO),
    ORDER_PROBLEM(Intent.ORDER_PROBLEM, Intent.ORDER_INFO),
    SHIPPING(Intent.LOGISTICS),
    RETURNS(Intent.RETURNS, Intent.REFUND),
    COUPON(Intent.PROMOTION),
    ACCOUNT(Intent.ACCOUNT),
    OTHER(Intent.GENERAL);

    private final Intent standsFor;
    private final Set<Intent> family;

    ExampleLabel(Intent standsFor, Intent... alsoCovers) {
        this.standsFor = standsFor;
        this.family = EnumSet.of(standsFor, alsoCovers);
    }

    /** The intent this label means when nothing finer is known. */
    public Intent standsFor() {
        return standsFor;
    }

    /** Whether {@code intent} is one of the intents this label covers. */
    public boolean covers(Intent intent) {
        return family.contains(intent);
    }

    /**
     * The intent to report for this label: the rules' intent when it is a finer one of the same family
     * (rules said payment_info, the examples say payment: keep payment_info), else the namesake.
     */
    public Intent refine(Intent current) {
        return current != null && covers(current) ? current : standsFor;
    }

    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The label with this code ({@code order_problem}), if any. */
    public static Optional<ExampleLabel> parse(String code) {
        String key = code == null ? "" : code.trim().toUpperCase(Locale.ROOT);
        for (ExampleLabel label : values()) {
            if (label.name().equals(key)) {
                return Optional.of(label);
            }
        }
        return Optional.empty();
    }

    /** The label whose family holds {@code intent}. */
    public static ExampleLabel of(Intent intent) {
        for (ExampleLabel label : values()) {
            if (label.covers(intent)) {
                return label;
            }
        }
        throw new IllegalStateException("no example label covers " + intent);
    }
}
