package io.sluice.governance.provider;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;

/**
 * The deadline of each provider call: when it passes, the call is cancelled, which closes its socket, so a hung
 * provider holds no thread and no connection past it (the call then fails as a timeout).
 *
 * <p>Why not OkHttp's own call timeout: it queues every call's deadline in okio's {@code AsyncTimeout}, one queue
 * behind one process-wide lock that every call enters when it starts and again when it ends. That queue was 7–8 %
 * of a {@code /v1} call's CPU samples (docs/capacity.md). A hashed wheel takes a deadline and its cancellation
 * with a lock-free queue each; its one thread moves them into the wheel's slots once a tick. Netty's wheel is here
 * already (Redisson runs on Netty).
 */
final class ProviderDeadlines {

    /**
     * How late a deadline may fire. Provider deadlines are seconds; a tenth of one is noise beside them, and the
     * wheel's thread, once started, wakes only ten times a second.
     */
    static final Duration TICK = Duration.ofMillis(100);

    private static final HashedWheelTimer WHEEL = new HashedWheelTimer(
        Thread.ofPlatform().daemon().name("sluice-provider-deadlines").factory(),
        TICK.toMillis(), TimeUnit.MILLISECONDS, 512);

    private ProviderDeadlines() {
    }

    /** Cancels {@code call} after {@code timeout} unless the returned deadline is cancelled first. */
    static Timeout cancelAfter(okhttp3.Call call, Duration timeout) {
        return WHEEL.newTimeout(deadline -> call.cancel(), Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
    }
}
