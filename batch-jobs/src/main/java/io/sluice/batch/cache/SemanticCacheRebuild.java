package io.sluice.batch.cache;

import io.sluice.batch.jobs.maintenance.MaintenanceProgress;
import io.sluice.batch.jobs.maintenance.MaintenanceWork;

import org.springframework.beans.factory.ObjectProvider;

/** The {@code semantic-cache-rebuild} job's work: delegates to the {@link SemanticCacheMaintenance} bean, if any. */
public class SemanticCacheRebuild implements MaintenanceWork {

    public static final String JOB_NAME = "semantic-cache-rebuild";

    private final ObjectProvider<SemanticCacheMaintenance> cache;

    public SemanticCacheRebuild(ObjectProvider<SemanticCacheMaintenance> cache) {
        this.cache = cache;
    }

    @Override
    public String jobName() {
        return JOB_NAME;
    }

    @Override
    public boolean clusterWide() {
        return true;
    }

    @Override
    public void run(MaintenanceProgress progress) throws Exception {
        cache.getIfAvailable(() -> SemanticCacheMaintenance.NONE).rebuild(progress);
    }
}
