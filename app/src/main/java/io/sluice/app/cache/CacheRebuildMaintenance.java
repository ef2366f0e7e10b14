package io.sluice.app.cache;

import io.sluice.api.cache.CacheRebuild;
import io.sluice.batch.cache.SemanticCacheMaintenance;
import io.sluice.batch.jobs.maintenance.MaintenanceProgress;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * batch-jobs' semantic-cache-rebuild job runs platform-api's {@link CacheRebuild} (drop entries with
 * changed sources or negative feedback, warm frequent questions from stored F4 answers). Lives in the app
 * because platform-api does not depend on batch-jobs; with the cache disabled the job does nothing.
 */
@Component
public class CacheRebuildMaintenance implements SemanticCacheMaintenance {

    private final ObjectProvider<CacheRebuild> rebuild;

    public CacheRebuildMaintenance(ObjectProvider<CacheRebuild> rebuild) {
        this.rebuild = rebuild;
    }

    @Override
    public void rebuild(MaintenanceProgress progress) throws Exception {
        CacheRebuild cache = rebuild.getIfAvailable();
        if (cache == null) {
            NONE.rebuild(progress);
            return;
        }
        cache.rebuild(new CacheRebuild.Progress() {
            @Override
            public void progress(long done, long total) {
                progress.progress(done, total);
            }

            @Override
            public boolean stopRequested() {
                return progress.stopRequested();
            }
        });
    }
}
