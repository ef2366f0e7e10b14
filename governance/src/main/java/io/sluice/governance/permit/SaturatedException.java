package io.sluice.governance.permit;

import java.time.Duration;

/** No permit of a lane became free within its wait bound: the caller degrades or asks to retry. */
public class SaturatedException extends RuntimeException {

    private final String lane;
    private final Duration waited;

    public SaturatedException(String lane, Duration waited) {
        super("lane '" + lane + "' is saturated: no permit within " + waited.toMillis() + " ms");
        this.lane = lane;
        this.waited = waited;
    }

    public String lane() {
        return lane;
    }

    public Duration waited() {
        return waited;
    }
}
