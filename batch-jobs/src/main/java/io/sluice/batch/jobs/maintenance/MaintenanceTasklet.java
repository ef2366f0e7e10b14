package io.sluice.batch.jobs.maintenance;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Runs one {@link MaintenanceWork} as the only step of its job. Progress goes into the step execution
 * (write count = done, context {@value #TOTAL} = total) and is saved at most every half second, so the
 * job API shows done/total, rate and ETA while it runs. A stop request (execution STOPPING in the shared
 * repository) is passed to the work; if it returns early the step ends STOPPED (restartable).
 */
public class MaintenanceTasklet implements Tasklet {

    public static final String TOTAL = "maintenance.total";
    private static final long SAVE_EVERY_MILLIS = 500;

    private final MaintenanceWork work;
    private final JobRepository repository;

    public MaintenanceTasklet(MaintenanceWork work, JobRepository repository) {
        this.work = work;
        this.repository = repository;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) throws Exception {
        StepExecution step = chunkContext.getStepContext().getStepExecution();
        long executionId = step.getJobExecutionId();
        boolean[] stopped = {false};
        work.run(new MaintenanceProgress() {
            private long lastSave;

            @Override
            public void progress(long done, long total) {
                step.setWriteCount(done);
                step.getExecutionContext().putLong(TOTAL, total);
                long now = System.currentTimeMillis();
                if (now - lastSave >= SAVE_EVERY_MILLIS || done >= total) {
                    lastSave = now;
                    repository.update(step);
                    repository.updateExecutionContext(step);
                }
            }

            @Override
            public String parameter(String name) {
                Object value = step.getJobExecution().getJobParameters().getString(name);
                return value == null ? null : value.toString();
            }

            @Override
            public boolean stopRequested() {
                var execution = repository.getJobExecution(executionId);
                boolean stop = execution != null && execution.getStatus() == BatchStatus.STOPPING;
                stopped[0] |= stop;
                return stop;
            }
        });
        if (stopped[0]) {
            step.setTerminateOnly();
        }
        return RepeatStatus.FINISHED;
    }
}
