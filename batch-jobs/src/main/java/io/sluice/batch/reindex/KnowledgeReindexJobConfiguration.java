package io.sluice.batch.reindex;

import io.sluice.batch.jobs.maintenance.MaintenanceJobs;
import io.sluice.knowledge.ingest.IngestionService;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The knowledge-reindex job (per instance: each instance has its own Lucene index on local disk). */
@Configuration(proxyBeanMethods = false)
public class KnowledgeReindexJobConfiguration {

    @Bean
    KnowledgeReindex knowledgeReindex(ObjectProvider<IngestionService> ingestion) {
        return new KnowledgeReindex(ingestion);
    }

    @Bean
    Job knowledgeReindexJob(KnowledgeReindex work, JobRepository repository) {
        return MaintenanceJobs.job(work, repository);
    }
}
