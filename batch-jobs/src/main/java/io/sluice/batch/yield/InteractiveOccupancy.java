package io.sluice.batch.yield;

/**
 * How busy the interactive (chat) lane is right now, as a fraction 0..1 of its capacity; a negative
 * value means "unknown" (the batch lane then keeps its current limit).
 *
 * <p>The default implementation ({@link PermitOccupancy}) reads the gateway's cluster-wide interactive
 * permits in Redis: permits held ÷ permits configured. Because the permits are cluster-wide, every
 * instance sees the same number and every instance's batch lane yields together. The gateway may
 * publish a better signal (for example including callers waiting for a permit) by declaring its own
 * bean of this type.
 */
@FunctionalInterface
public interface InteractiveOccupancy {

    double occupancy();
}
