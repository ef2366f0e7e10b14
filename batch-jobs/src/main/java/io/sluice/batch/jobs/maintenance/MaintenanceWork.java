package io.sluice.batch.jobs.maintenance;

/**
 * Long maintenance work that batch-jobs runs as a Spring Batch job of its own ({@link MaintenanceJobs}:
 * one tasklet step calling {@link #run}, progress mapped onto the step; launch/stop/restart and progress
 * through {@code /api/v1/jobs}, schedule {@code sluice.batch.jobs.<jobName>}). Implementations:
 * FAQ snapshot rebuild, knowledge reindex, semantic-cache rebuild (a seam until the cache exists).
 */
public interface MaintenanceWork {

    /** Job name, e.g. {@code faq-snapshot-rebuild}; also the key of its schedule. */
    String jobName();

    /**
     * Does the work. Must leave the previous good state in place when it fails (a failed rebuild
     * publishes nothing), and should return early when {@link MaintenanceProgress#stopRequested()}.
     */
    void run(MaintenanceProgress progress) throws Exception;

    /**
     * True when one run serves the whole cluster (its scheduled tick launches it once, on whichever
     * instance is first); false when every instance runs it for itself (e.g. its local index).
     */
    default boolean clusterWide() {
        return false;
    }
}
