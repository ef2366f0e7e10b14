package io.sluice.batch.jobs.maintenance;

/**
 * Seam for long maintenance work owned by other modules that batch-jobs will run as Spring Batch jobs
 * (progress, schedule, launch/stop/restart through {@code /api/v1/jobs}): FAQ snapshot rebuild
 * (build → validate → publish, never publishing a snapshot that fails validation), semantic-cache
 * rebuild, knowledge reindex (build aside, then swap).
 *
 * <p>Not wired yet: the knowledge module's snapshot/reindex API is being written in parallel. The next
 * step is a job per {@code MaintenanceWork} bean (a tasklet step calling {@link #run}, its progress
 * mapped onto the step's counts) and a {@code sluice.batch.jobs.<jobName>} schedule entry.
 */
public interface MaintenanceWork {

    /** Job name, e.g. {@code faq-snapshot-rebuild}; also the key of its schedule. */
    String jobName();

    /**
     * Does the work. Must leave the previous good state in place when it fails (a failed rebuild
     * publishes nothing), and should return early when {@link MaintenanceProgress#stopRequested()}.
     */
    void run(MaintenanceProgress progress) throws Exception;
}
