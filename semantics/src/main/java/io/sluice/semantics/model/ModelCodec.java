package io.sluice.semantics.model;

/** Reads a stored payload back into a model; refuses a payload it cannot use. */
@FunctionalInterface
public interface ModelCodec<T> {

    /** @throws IllegalArgumentException when the payload is not a valid model of this kind */
    T decode(byte[] payload);
}
