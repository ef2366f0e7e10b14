package io.sluice.batch.jobs.drain;

import io.sluice.batch.SluiceBatchProperties;
import io.sluice.batch.queue.ClaimedItem;
import io.sluice.batch.queue.LeaseKeeper;
import io.sluice.batch.queue.WorkQueue;
import io.sluice.batch.yield.BatchLaneThrottle;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.semantics.relevance.RelevanceModel;

import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The work-queue drain job: one chunk-oriented step. The reader claims items from the queue; the
 * processor calls the gateway on the BATCH lane, items of a chunk concurrently (up to
 * {@code sluice.batch.drain.concurrency}, further limited by the {@link BatchLaneThrottle}); the writer
 * stores results in the chunk transaction. Poison items are skipped to dead-letter.
 *
 * <p>Parameters: {@code queue} (default "default"), {@code maxItems} (0 = until the queue is drained),
 * {@code runId} (makes each launch its own instance).
 */
@Configuration(proxyBeanMethods = false)
public class DrainJobConfiguration {

    public static final String JOB_NAME = "work-queue-drain";

    /**
     * Passes of the drain step until the queue has nothing claimable within the linger time: a failed
     * pass fails the job (restartable), a stopped one stops it, a pass without a gateway ends it as NOOP.
     */
    @Bean
    Job workQueueDrainJob(JobRepository jobRepository, Step workQueueDrainStep, WorkQueue queue,
            SluiceBatchProperties properties) {
        DrainDecider decider = new DrainDecider(queue, properties.drain().linger());
        return new JobBuilder(JOB_NAME, jobRepository)
            .start(workQueueDrainStep)
            .on("FAILED").fail()
            .from(workQueueDrainStep).on("STOPPED").stopAndRestart(workQueueDrainStep)
            .from(workQueueDrainStep).on("*").to(decider)
            .from(decider).on(DrainDecider.CONTINUE).to(workQueueDrainStep)
            .from(decider).on(DrainItemReader.NOOP).end(DrainItemReader.NOOP)
            .from(decider).on("STOPPED").stop()
            .from(decider).on("*").end()
            .end()
            .build();
    }

    @Bean
    Step workQueueDrainStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            DrainItemReader drainItemReader, DrainItemProcessor drainItemProcessor, DrainItemWriter drainItemWriter,
            DeadLetterSkipListener deadLetterSkipListener, DrainExecutor drainExecutor, SluiceBatchProperties properties) {
        return new StepBuilder("drain", jobRepository)
            .<ClaimedItem, DrainResult>chunk(properties.drain().chunkSize())
            .transactionManager(transactionManager)
            .reader(drainItemReader)
            .processor(drainItemProcessor)
            .writer(drainItemWriter)
            .taskExecutor(drainExecutor.executor())
            .faultTolerant()
            .skip(PoisonItemException.class)
            .skipLimit(properties.drain().skipLimit())
            .skipListener(deadLetterSkipListener)
            .allowStartIfComplete(true) // one pass per loop of the job flow
            .build();
    }

    /** No inferred destroy method: only the step closes the reader (closing gives back its items). */
    @Bean(destroyMethod = "")
    @StepScope
    DrainItemReader drainItemReader(WorkQueue queue, LeaseKeeper leases, ObjectProvider<LlmGateway> gateway,
            SluiceBatchProperties properties,
            @Value("#{jobParameters['queue']}") String queueName,
            @Value("#{jobParameters['maxItems']}") Long maxItems) {
        SluiceBatchProperties.Drain drain = properties.drain();
        return new DrainItemReader(queue, leases, gateway, queueName == null ? WorkQueue.DEFAULT_QUEUE : queueName,
            maxItems == null ? 0 : maxItems, drain.chunkSize(), properties.queue().lease(), drain.linger(),
            drain.pollInterval(), properties.workerId());
    }

    @Bean
    DrainItemProcessor drainItemProcessor(ObjectProvider<LlmGateway> gateway, JdbcTemplate jdbc,
            BatchLaneThrottle throttle, SluiceBatchProperties properties, ObjectProvider<RetrievalChain> chain,
            ObjectProvider<RetrievalPlan> plan, ObjectProvider<RelevanceModel> relevance,
            ObjectProvider<io.sluice.governance.degradation.DegradationControl> degradation) {
        return new DrainItemProcessor(gateway, new PromptBuilder(jdbc, properties.drain().maxInputChars(),
            grounding(chain.getIfAvailable(), plan.getIfAvailable(), relevance.getIfAvailable()), PASSAGE_CHARS), throttle,
            properties.drain().maxTokens(), properties.queue().saturatedDelay(), properties.queue().lease().dividedBy(2),
            degradation);
    }

    /** Longest passage text in a deferred answer's prompt (the online F4 default). */
    static final int PASSAGE_CHARS = 1200;

    /**
     * Deferred answers retrieve like the online tiers: the knowledge chain with the default plan (top-k of
     * L0) and the relevance bars in service. Without a knowledge module here: none (prompt-only rules).
     */
    static PromptBuilder.Grounding grounding(RetrievalChain chain, RetrievalPlan plan, RelevanceModel relevance) {
        if (chain == null || plan == null) {
            return null;
        }
        return question -> chain.retrieve(question, relevance == null ? plan : relevance.apply(plan));
    }

    @Bean
    DrainItemWriter drainItemWriter(WorkQueue queue, JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        return new DrainItemWriter(queue, jdbc, transactionManager);
    }

    @Bean
    DeadLetterSkipListener deadLetterSkipListener(WorkQueue queue) {
        return new DeadLetterSkipListener(queue);
    }

    @Bean(destroyMethod = "shutdown")
    DrainExecutor drainExecutor(SluiceBatchProperties properties) {
        return new DrainExecutor(properties.drain().concurrency());
    }

    /**
     * Threads that process a chunk's items concurrently. Deliberately not an Executor bean, so it never
     * replaces or competes with the application's task executor.
     */
    public static final class DrainExecutor {

        private final ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();

        DrainExecutor(int threads) {
            executor.setCorePoolSize(threads);
            executor.setMaxPoolSize(threads);
            executor.setThreadNamePrefix("batch-drain-");
            executor.setDaemon(true);
            executor.initialize();
        }

        ThreadPoolTaskExecutor executor() {
            return executor;
        }

        void shutdown() {
            executor.shutdown();
        }
    }
}
