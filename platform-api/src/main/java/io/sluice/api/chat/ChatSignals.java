package io.sluice.api.chat;

import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.ingress.LoadMonitor;
import io.sluice.governance.degradation.DegradationSignalSource;
import io.sluice.governance.degradation.DegradationSignals;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.permit.ClusterPermits;

/**
 * What the chat pipeline measures, for the automatic degradation level: LLM p95 latency and error
 * ratio of its answers, admission queue length, and interactive permit occupancy (cluster-wide).
 */
public final class ChatSignals implements DegradationSignalSource {

    private final LoadMonitor load;
    private final PriorityAdmission admission;
    private final ClusterPermits permits;

    public ChatSignals(LoadMonitor load, PriorityAdmission admission, ClusterPermits permits) {
        this.load = load;
        this.admission = admission;
        this.permits = permits;
    }

    @Override
    public DegradationSignals read() {
        LoadMonitor.Snapshot snapshot = load.snapshot();
        double occupancy = 0;
        try {
            String lane = Lane.INTERACTIVE.key();
            occupancy = (double) permits.inUse(lane) / Math.max(1, permits.size(lane));
        } catch (RuntimeException e) {
            // Redis unavailable: occupancy unknown this tick
        }
        return new DegradationSignals(snapshot.p95LatencyMs(), snapshot.errorRatio(), occupancy, admission.queueLength());
    }
}
