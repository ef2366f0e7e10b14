package io.sluice.governance.degradation;

/** The global degradation level: L0 normal … L3 no LLM at all. Higher = more degraded. */
public enum DegradationLevel {
    L0, L1, L2, L3;

    public boolean worseThan(DegradationLevel other) {
        return ordinal() > other.ordinal();
    }

    public DegradationLevel better() {
        return this == L0 ? L0 : values()[ordinal() - 1];
    }

    public static DegradationLevel worst(DegradationLevel a, DegradationLevel b) {
        return a.worseThan(b) ? a : b;
    }
}
