package io.sluice.bench.load;

import java.util.List;

import io.sluice.mock.MockCounters;

/**
 * What one scenario run measured and whether its invariants held.
 *
 * @param plan            the scenario
 * @param timeline        per-second outcomes and samples
 * @param checks          the invariants, each with what was measured
 * @param events          what was done when (second, label)
 * @param mock            the mock's counters at the end
 * @param timeToDegrade   seconds from the fault to the first degraded (non-F4) answer delivered for a request sent after it (NaN = none)
 * @param timeToRecover   seconds from the fault's end to the F4 share being back (NaN = not within the run)
 * @param baselineF4      F4 share before the fault
 * @param llmCallsPerSecondAtPeak provider calls answered per second while the offered load was highest
 * @param tokens          gateway tokens per request type during the run (token allocation), all instances
 * @param peakShares      the highest part of the cluster's token window each type held at a sample (0..1)
 * @param allocation      allocation decisions of the run per "type/outcome" (refused, stepped_down)
 */
record ScenarioResult(ScenarioPlan plan, Timeline timeline, List<Check> checks, List<String> events, MockCounters mock,
        double timeToDegrade, double timeToRecover, double baselineF4, double llmCallsPerSecondAtPeak,
        java.util.Map<String, Double> tokens, java.util.Map<String, Double> peakShares,
        java.util.Map<String, Double> allocation) {

    /** One invariant: its name, whether it held, and what was measured against what. */
    record Check(String name, boolean passed, String measured) {
    }

    boolean passed() {
        return checks.stream().allMatch(Check::passed);
    }
}
