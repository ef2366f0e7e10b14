package io.sluice.semantics.model;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The model of one kind this instance answers with right now: the cluster's current version once
 * loaded, else the built-in default. Swapped atomically; readers never see a half-loaded model.
 */
public final class ActiveModel<T> {

    /** A loaded model and the version it came from (0 = the built-in default). */
    public record Loaded<T>(T model, long version) {
    }

    private final String kind;
    private final ModelCodec<T> codec;
    private final Loaded<T> fallback;
    private final AtomicReference<Loaded<T>> current;

    ActiveModel(String kind, ModelCodec<T> codec, T fallback) {
        this.kind = kind;
        this.codec = codec;
        this.fallback = new Loaded<>(fallback, 0);
        this.current = new AtomicReference<>(this.fallback);
    }

    public String kind() {
        return kind;
    }

    /** The model answering now (never null when the default is not null). */
    public T get() {
        return current.get().model();
    }

    /** The stored version answering now; 0 when the built-in default answers. */
    public long version() {
        return current.get().version();
    }

    public Loaded<T> loaded() {
        return current.get();
    }

    /** Decodes first, so a bad payload leaves the previous model answering. */
    T decode(byte[] payload) {
        return Objects.requireNonNull(codec.decode(payload), "codec returned null");
    }

    void install(T model, long version) {
        current.set(new Loaded<>(model, version));
    }

    void reset() {
        current.set(fallback);
    }
}
