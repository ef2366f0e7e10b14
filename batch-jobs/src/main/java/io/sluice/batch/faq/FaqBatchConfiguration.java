package io.sluice.batch.faq;

import javax.sql.DataSource;

import io.sluice.batch.SluiceBatchProperties;
import io.sluice.batch.jobs.maintenance.MaintenanceJobs;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.ingest.IngestionService;

import org.redisson.api.RedissonClient;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

/** FAQ snapshot rebuild job, cluster-wide distribution of snapshots, candidate mining and review. */
@Configuration(proxyBeanMethods = false)
public class FaqBatchConfiguration {

    @Bean
    FaqSnapshotStore faqSnapshotStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        return new FaqSnapshotStore(jdbc, transactionManager);
    }

    @Bean
    FaqCandidateStore faqCandidateStore(JdbcTemplate jdbc) {
        return new FaqCandidateStore(jdbc);
    }

    @Bean
    FaqSnapshotDistribution faqSnapshotDistribution(FaqSnapshotService snapshots, FaqSnapshotStore store,
            ObjectProvider<RedissonClient> redisson, SluiceBatchProperties properties) {
        return new FaqSnapshotDistribution(snapshots, store, redisson.getIfAvailable(), properties.faq().channel(),
            properties.faq().keepVersions());
    }

    @Bean
    FaqCandidateMiner faqCandidateMiner(JdbcTemplate jdbc, Embedder embedder, FaqCandidateStore candidates,
            SluiceBatchProperties properties) {
        SluiceBatchProperties.Faq faq = properties.faq();
        return new FaqCandidateMiner(jdbc, embedder, candidates, faq.mineWindow(), faq.minOccurrences(), faq.similarity(),
            faq.maxMessages());
    }

    @Bean
    FaqCandidateReview faqCandidateReview(FaqCandidateStore candidates, ObjectProvider<FaqRepository> faq,
            DataSource dataSource, ObjectProvider<IngestionService> ingestion) {
        return new FaqCandidateReview(candidates, faq.getIfAvailable(() -> new FaqRepository(dataSource)),
            ingestion.getIfAvailable());
    }

    @Bean
    FaqSnapshotRebuild faqSnapshotRebuild(FaqCandidateMiner miner, ObjectProvider<FaqRepository> faq, DataSource dataSource,
            FaqSnapshotService snapshots, FaqSnapshotDistribution distribution, SluiceBatchProperties properties) {
        return new FaqSnapshotRebuild(miner, faq.getIfAvailable(() -> new FaqRepository(dataSource)), snapshots,
            distribution, properties.faq().minSelfHitRate(), properties.faq().minCountRatio());
    }

    @Bean
    Job faqSnapshotRebuildJob(FaqSnapshotRebuild work, JobRepository repository) {
        return MaintenanceJobs.job(work, repository);
    }
}
