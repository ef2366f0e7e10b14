package io.sluice.governance.degradation;

/** Something that measures load (the chat pipeline, the gateway); every bean of this type is read each tick. */
@FunctionalInterface
public interface DegradationSignalSource {

    DegradationSignals read();
}
