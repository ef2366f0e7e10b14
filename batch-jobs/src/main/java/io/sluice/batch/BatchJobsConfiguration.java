package io.sluice.batch;

import java.util.stream.Collectors;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.jobs.maintenance.MaintenanceWork;
import io.sluice.batch.jobs.scheduling.JobScheduler;
import io.sluice.batch.queue.LeaseKeeper;
import io.sluice.batch.queue.QueueMetrics;
import io.sluice.batch.queue.WorkQueue;
import io.sluice.batch.tasks.TaskService;
import io.sluice.batch.yield.BatchLaneThrottle;
import io.sluice.batch.yield.InteractiveOccupancy;
import io.sluice.batch.yield.PermitOccupancy;
import io.sluice.batch.yield.ThrottleSampler;
import io.sluice.governance.permit.ClusterPermits;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.batch.autoconfigure.BatchTaskExecutor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskExecutor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Wiring of the batch module: work queue, task service, batch-lane throttle, job control and schedule.
 * Spring Batch itself is Boot's JDBC configuration (spring-boot-starter-batch-jdbc) on the application
 * DataSource; see {@link BatchDefaults} for the properties this module pins.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SluiceBatchProperties.class)
public class BatchJobsConfiguration {

    @Bean
    WorkQueue workQueue(JdbcTemplate jdbc, PlatformTransactionManager transactionManager,
            SluiceBatchProperties properties, QueueMetrics queueMetrics) {
        WorkQueue queue = new WorkQueue(jdbc, transactionManager, properties.queue());
        queue.metrics(queueMetrics);
        return queue;
    }

    /** Renews the leases of items this instance's drain steps hold; stops (and so lets them expire) on shutdown. */
    @Bean
    LeaseKeeper leaseKeeper(WorkQueue workQueue) {
        return new LeaseKeeper(workQueue);
    }

    @Bean
    QueueMetrics queueMetrics(ObjectProvider<MeterRegistry> registry, JdbcTemplate jdbc,
            PlatformTransactionManager transactionManager, SluiceBatchProperties properties) {
        WorkQueue reader = new WorkQueue(jdbc, transactionManager, properties.queue());
        return new QueueMetrics(registry.getIfAvailable(SimpleMeterRegistry::new), reader::depth,
            properties.queue().metricsRefresh());
    }

    @Bean
    TaskService taskService(WorkQueue workQueue, SluiceBatchProperties properties, JdbcTemplate jdbc,
            org.springframework.beans.factory.ObjectProvider<io.sluice.batch.tasks.PayloadMasker> masker) {
        TaskService.ConversationOwners owners = (client, conversation) -> !jdbc.queryForList(
            "SELECT 1 FROM conversation WHERE id = ? AND client_id = ?", Integer.class, conversation, client).isEmpty();
        return new TaskService(workQueue, properties.tasks().maxPayloadBytes(), owners,
            masker.getIfAvailable(() -> io.sluice.batch.tasks.PayloadMasker.NONE));
    }

    @Bean
    BatchLaneThrottle batchLaneThrottle(SluiceBatchProperties properties, ObjectProvider<MeterRegistry> registry) {
        SluiceBatchProperties.Yield yield = properties.yield();
        BatchLaneThrottle throttle = new BatchLaneThrottle(Math.min(yield.floor(), properties.drain().concurrency()),
            properties.drain().concurrency(), yield.highWater(), yield.lowWater());
        MeterRegistry meters = registry.getIfAvailable(SimpleMeterRegistry::new);
        Gauge.builder("sluice.batch.lane.limit", throttle, BatchLaneThrottle::limit)
            .description("batch-lane LLM calls this instance may have in flight now").register(meters);
        Gauge.builder("sluice.batch.lane.in_flight", throttle, BatchLaneThrottle::inFlight)
            .description("batch-lane LLM calls in flight on this instance").register(meters);
        Gauge.builder("sluice.batch.lane.interactive_occupancy", throttle, BatchLaneThrottle::lastOccupancy)
            .description("last interactive-lane occupancy sample (0..1, negative = unknown)").register(meters);
        return throttle;
    }

    /**
     * Samples interactive occupancy into the throttle. Source: an {@link InteractiveOccupancy} bean if the
     * application declares one, else the gateway's cluster-wide interactive permits, else unknown
     * (the throttle then stays where it is, at its ceiling).
     */
    @Bean
    ThrottleSampler batchLaneThrottleSampler(BatchLaneThrottle throttle, ObjectProvider<InteractiveOccupancy> occupancy,
            ObjectProvider<ClusterPermits> permits, SluiceBatchProperties properties) {
        InteractiveOccupancy source = occupancy.getIfAvailable(() -> {
            ClusterPermits clusterPermits = permits.getIfAvailable();
            return clusterPermits != null ? new PermitOccupancy(clusterPermits) : () -> -1;
        });
        return new ThrottleSampler(throttle, source, properties.yield().sampleInterval());
    }

    /**
     * Runs launched jobs off the caller's thread, so launches through the API return at once. Not a
     * default candidate: it serves Spring Batch's JobOperator only (qualifier {@code @BatchTaskExecutor})
     * and never replaces the application's own task executor.
     */
    @Bean(defaultCandidate = false, destroyMethod = "shutdown")
    @BatchTaskExecutor
    TaskExecutor batchJobTaskExecutor() {
        ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
        executor.setCorePoolSize(4);
        executor.setMaxPoolSize(4);
        executor.setQueueCapacity(100);
        executor.setThreadNamePrefix("batch-job-");
        executor.initialize();
        return executor;
    }

    @Bean
    JobControl jobControl(JobOperator jobOperator, JobRepository jobRepository, ObjectProvider<Job> jobs,
            WorkQueue workQueue, SluiceBatchProperties properties) {
        return new JobControl(jobOperator, jobRepository, jobs.orderedStream().toList(), workQueue, properties.workerId(),
            properties.queue().lease());
    }

    @Bean
    JobScheduler batchJobScheduler(JobControl jobControl, SluiceBatchProperties properties,
            ObjectProvider<MaintenanceWork> works) {
        return new JobScheduler(jobControl, properties.jobs(), works.orderedStream()
            .filter(MaintenanceWork::clusterWide).map(MaintenanceWork::jobName).collect(Collectors.toSet()));
    }
}
