package io.sluice.governance.gateway;

/** A running streaming call. */
public interface LlmStream {

    /** Stops the stream and releases its permit (idempotent; a client disconnect calls this). */
    void cancel();

    boolean finished();
}
