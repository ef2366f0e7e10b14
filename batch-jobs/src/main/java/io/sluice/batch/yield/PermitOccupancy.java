package io.sluice.batch.yield;

import io.sluice.governance.gateway.Lane;
import io.sluice.governance.permit.ClusterPermits;

/** Interactive occupancy = interactive permits in use ÷ interactive permits (cluster-wide, Redis). */
public class PermitOccupancy implements InteractiveOccupancy {

    private final ClusterPermits permits;

    public PermitOccupancy(ClusterPermits permits) {
        this.permits = permits;
    }

    @Override
    public double occupancy() {
        try {
            int size = permits.size(Lane.INTERACTIVE.key());
            return size <= 0 ? -1 : Math.min(1.0, (double) permits.inUse(Lane.INTERACTIVE.key()) / size);
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
