package io.sluice.api.intent;

/** Admission class: S (complaint, urgent) before A (payment, order problems) before B (everything else). */
public enum Priority {
    S, A, B
}
