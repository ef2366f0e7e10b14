package io.sluice.batch.cache;

import io.sluice.batch.jobs.maintenance.MaintenanceJobs;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The semantic-cache-rebuild job, running whatever {@link SemanticCacheMaintenance} bean exists (none: a no-op). */
@Configuration(proxyBeanMethods = false)
public class SemanticCacheJobConfiguration {

    @Bean
    SemanticCacheRebuild semanticCacheRebuild(ObjectProvider<SemanticCacheMaintenance> cache) {
        return new SemanticCacheRebuild(cache);
    }

    @Bean
    Job semanticCacheRebuildJob(SemanticCacheRebuild work, JobRepository repository) {
        return MaintenanceJobs.job(work, repository);
    }
}
