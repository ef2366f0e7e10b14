package io.sluice.governance.permit;

import java.util.concurrent.atomic.AtomicBoolean;

import org.redisson.api.RPermitExpirableSemaphore;

/** One permit held by this instance; closing it releases the permit exactly once. */
public final class PermitLease implements AutoCloseable {

    private final String lane;
    private final String permitId;
    private final RPermitExpirableSemaphore semaphore;
    private final AtomicBoolean released = new AtomicBoolean();

    PermitLease(String lane, String permitId, RPermitExpirableSemaphore semaphore) {
        this.lane = lane;
        this.permitId = permitId;
        this.semaphore = semaphore;
    }

    public String lane() {
        return lane;
    }

    public boolean released() {
        return released.get();
    }

    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            // tryRelease: a permit whose lease already expired is simply gone, not an error
            semaphore.tryRelease(permitId);
        }
    }
}
