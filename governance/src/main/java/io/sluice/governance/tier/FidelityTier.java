package io.sluice.governance.tier;

/**
 * How good an answer is, named honestly on every answer (see docs/architecture.md).
 */
public enum FidelityTier {
    F4("full", "AI analysis"),
    F3("lean", "AI answer"),
    F2("fast", "fast answer"),
    F1("faq", "automatic answer"),
    F0("deferred", "answer later");

    private final String label;
    private final String badge;

    FidelityTier(String label, String badge) {
        this.label = label;
        this.badge = badge;
    }

    public String label() {
        return label;
    }

    public String badge() {
        return badge;
    }
}
