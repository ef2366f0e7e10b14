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

    /**
     * Answers in the window before latency and error ratio count: one failed call out of one is an
     * error ratio of 1.0, and must not send the cluster to L3 on its own.
     */
    static final int MIN_SAMPLES = 10;

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
        boolean enoughEvidence = snapshot.samples() >= MIN_SAMPLES;
        return new DegradationSignals(enoughEvidence ? snapshot.p95LatencyMs() : 0,
            enoughEvidence ? snapshot.errorRatio() : 0, occupancy, admission.queueLength());
    }
}
