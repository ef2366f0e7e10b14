package io.sluice.batch.jobs.drain;

import java.time.Duration;
import java.util.Optional;

import io.sluice.batch.queue.WorkQueue;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.flow.FlowExecutionStatus;
import org.springframework.batch.core.job.flow.JobExecutionDecider;
import org.springframework.batch.core.step.StepExecution;

/**
 * After each pass of the drain step: another pass when the last one took items and more of the queue
 * becomes claimable within {@code linger} (items it put back for retry or saturation, another worker's
 * expiring leases); otherwise the job ends (NOOP when there was no usable gateway).
 */
public class DrainDecider implements JobExecutionDecider {

    public static final String CONTINUE = "CONTINUE";

    private final WorkQueue queue;
    private final Duration linger;

    public DrainDecider(WorkQueue queue, Duration linger) {
        this.queue = queue;
        this.linger = linger;
    }

    @Override
    public FlowExecutionStatus decide(JobExecution jobExecution, StepExecution stepExecution) {
        if (stepExecution == null) {
            return FlowExecutionStatus.COMPLETED;
        }
        if (stepExecution.getStatus() == BatchStatus.STOPPED || jobExecution.isStopping()) {
            return FlowExecutionStatus.STOPPED;
        }
        if (DrainItemReader.NOOP.equals(stepExecution.getExitStatus().getExitCode())) {
            return new FlowExecutionStatus(DrainItemReader.NOOP);
        }
        if (stepExecution.getReadCount() == 0 || stepExecution.getExecutionContext().containsKey(DrainItemReader.LIMIT_REACHED_KEY)) {
            return FlowExecutionStatus.COMPLETED;
        }
        String queueName = jobExecution.getJobParameters().getString("queue", WorkQueue.DEFAULT_QUEUE);
        Optional<Duration> due = queue.nextDue(queueName, null);
        return due.isPresent() && due.get().compareTo(linger) <= 0 ? new FlowExecutionStatus(CONTINUE)
            : FlowExecutionStatus.COMPLETED;
    }
}
