package io.sluice.bench.load;

import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * One scenario: offered load over time, what happens when, and what the invariants expect.
 *
 * @param name          short name (command line, file names)
 * @param title         one line for the report
 * @param seconds       how long load is offered
 * @param rate          offered requests per second at a given second
 * @param events        faults and their ends, at given seconds
 * @param faultStart    second the fault (or surge) begins; negative = no fault
 * @param faultEnd      second it ends
 * @param recoveryBound seconds after faultEnd within which the F4 share must be back
 * @param rateLimitStorm the mock's own 429s during the fault are expected (not Sluice's doing)
 * @param killsInstance one instance is killed with -9 during the fault
 * @param workItems     work items submitted through the task API at the start (0 = none)
 * @param peakFrom      a surge's highest offered load starts here (negative = no surge)
 * @param peakTo        and ends here
 */
record ScenarioPlan(String name, String title, double seconds, DoubleUnaryOperator rate, List<Event> events,
        double faultStart, double faultEnd, double recoveryBound, boolean rateLimitStorm, boolean killsInstance,
        int workItems, double peakFrom, double peakTo) {

    /** Something done to the system at a second of the scenario. */
    record Event(double at, String label, Action action) {
    }

    @FunctionalInterface
    interface Action {
        void run(ScenarioRunner.Context context) throws Exception;
    }

    boolean hasFault() {
        return faultStart >= 0;
    }
}
