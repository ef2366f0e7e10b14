package io.sluice.batch.jobs.maintenance;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.support.transaction.ResourcelessTransactionManager;

/**
 * Turns a {@link MaintenanceWork} into a Spring Batch job of one tasklet step, named after the work. The
 * step holds no database transaction around the work (maintenance can take minutes, and what it writes,
 * e.g. a published snapshot, must be committed before it is announced); its own writes commit as they go.
 */
public final class MaintenanceJobs {

    private MaintenanceJobs() {
    }

    public static Job job(MaintenanceWork work, JobRepository repository) {
        return new JobBuilder(work.jobName(), repository)
            .start(new StepBuilder(work.jobName(), repository)
                .tasklet(new MaintenanceTasklet(work, repository), new ResourcelessTransactionManager())
                .allowStartIfComplete(true)
                .build())
            .build();
    }
}
