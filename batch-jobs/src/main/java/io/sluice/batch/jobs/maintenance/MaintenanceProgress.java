package io.sluice.batch.jobs.maintenance;

/** What maintenance work reports while it runs (shown as done/total, rate and ETA). */
public interface MaintenanceProgress {

    void progress(long done, long total);

    /** An operator asked the job to stop. */
    boolean stopRequested();

    /** A job parameter of this run (launch body {@code parameters}), or null. */
    default String parameter(String name) {
        return null;
    }
}
