package io.sluice.batch.cache;

import io.sluice.batch.jobs.maintenance.MaintenanceProgress;

/**
 * Seam for the semantic cache (built in platform-api at the same time): what the
 * {@code semantic-cache-rebuild} job calls. An implementation should warm the cache with the most
 * frequent recent questions, invalidate entries whose source documents or FAQ entries changed, and
 * drop entries that got negative feedback, reporting progress and returning early on a stop request;
 * a failure must leave the cache serving as before. Declare one bean of this type and the job uses it;
 * without one the job runs {@link #NONE} and ends at once.
 */
public interface SemanticCacheMaintenance {

    /** Does nothing: there is no semantic cache to maintain (yet). */
    SemanticCacheMaintenance NONE = progress -> progress.progress(0, 0);

    void rebuild(MaintenanceProgress progress) throws Exception;
}
