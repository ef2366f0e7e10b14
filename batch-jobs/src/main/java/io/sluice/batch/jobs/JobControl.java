package io.sluice.batch.jobs;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import io.sluice.batch.jobs.drain.DrainJobConfiguration;
import io.sluice.batch.jobs.maintenance.MaintenanceTasklet;
import io.sluice.batch.progress.JobProgress;
import io.sluice.batch.reindex.KnowledgeReindex;
import io.sluice.batch.progress.ProgressCalculator;
import io.sluice.batch.queue.WorkQueue;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.dao.OptimisticLockingFailureException;

/**
 * Launch, stop, restart and progress of Sluice's Spring Batch jobs (used by the API, the scheduler and
 * the console). Launches return at once: the {@link JobOperator} runs jobs on the batch task executor.
 */
public class JobControl {

    private static final Logger log = LoggerFactory.getLogger(JobControl.class);
    private static final Pattern QUEUE_NAME = Pattern.compile("[A-Za-z0-9_.:-]{1,50}");

    private final JobOperator operator;
    private final JobRepository repository;
    private final Map<String, Job> jobs = new LinkedHashMap<>();
    private final WorkQueue queue;
    private final String workerId;
    private final Duration staleAfter;

    /**
     * @param staleAfter a running execution with no progress recorded for this long is taken to have died
     *                   with its instance (a live drain commits a chunk well within a lease)
     */
    public JobControl(JobOperator operator, JobRepository repository, List<Job> jobs, WorkQueue queue, String workerId,
            Duration staleAfter) {
        this.operator = operator;
        this.repository = repository;
        jobs.stream().sorted(Comparator.comparing(Job::getName)).forEach(job -> this.jobs.put(job.getName(), job));
        this.queue = queue;
        this.workerId = workerId;
        this.staleAfter = staleAfter;
    }

    public Set<String> jobNames() {
        return jobs.keySet();
    }

    public boolean exists(String jobName) {
        return jobs.containsKey(jobName);
    }

    /** Starts a new run of the job with the given parameters; returns at once. */
    public JobExecution launch(String jobName, Map<String, String> parameters) {
        return launch(jobName, parameters, false);
    }

    /**
     * Starts a scheduled run of a per-instance job (such as the drain every minute); logged at debug
     * only, so an idle platform's log stays quiet. The console's job list shows every run.
     */
    public JobExecution launchScheduled(String jobName) {
        return launch(jobName, Map.of(), true);
    }

    private JobExecution launch(String jobName, Map<String, String> parameters, boolean scheduled) {
        Job job = job(jobName);
        JobParameters jobParameters = parameters(jobName, parameters == null ? Map.of() : parameters);
        try {
            JobExecution execution = operator.start(job, jobParameters);
            if (scheduled) {
                log.debug("launched scheduled {} execution {}", jobName, execution.getId());
            } else {
                log.info("launched {} execution {} with {}", jobName, execution.getId(),
                    io.sluice.web.text.SafeText.forLog(String.valueOf(parameters)));
            }
            return execution;
        } catch (Exception e) {
            throw new JobControlException(JobControlException.Kind.CONFLICT,
                "could not launch " + jobName + ": " + e.getMessage());
        }
    }

    /**
     * Starts the run of a cluster-wide job for one scheduled occurrence (e.g. the cron fire time). The
     * occurrence identifies the job instance in the shared repository, so when every instance's scheduler
     * fires, one launch wins and the others are refused (CONFLICT) instead of running the job twice.
     */
    public JobExecution launchOccurrence(String jobName, String occurrence) {
        Job job = job(jobName);
        JobParameters jobParameters = new JobParametersBuilder()
            .addString("runId", "scheduled@" + occurrence)
            .addString("worker", workerId, false)
            .toJobParameters();
        try {
            JobExecution execution = operator.start(job, jobParameters);
            log.info("launched {} execution {} for occurrence {}", jobName, execution.getId(), occurrence);
            return execution;
        } catch (Exception e) {
            throw new JobControlException(JobControlException.Kind.CONFLICT,
                jobName + " for " + occurrence + " was already launched: " + e.getMessage());
        }
    }

    /**
     * Asks a running execution to stop: it is marked STOPPING in the shared job repository, and its step
     * (on whichever instance runs it) stops at its next chunk commit, giving back what it holds. The
     * operator's own stop also rewrites the live step execution, which races with the running step
     * (optimistic locking) and can turn a clean stop into a failure; this avoids that.
     */
    public JobExecution stop(long executionId) {
        for (int attempt = 0; ; attempt++) {
            JobExecution execution = execution(executionId);
            if (execution.getStatus() == BatchStatus.STOPPING) {
                return execution;
            }
            if (execution.getStatus() != BatchStatus.STARTED && execution.getStatus() != BatchStatus.STARTING) {
                throw new JobControlException(JobControlException.Kind.CONFLICT,
                    "execution " + executionId + " is not running (" + execution.getStatus() + ")");
            }
            execution.setStatus(BatchStatus.STOPPING);
            try {
                repository.update(execution);
                log.info("stop requested for execution {}", executionId);
                return execution(executionId);
            } catch (OptimisticLockingFailureException e) {
                if (attempt >= 3) {
                    throw e;
                }
                // the running job updated it at the same moment: read it again and retry
            }
        }
    }

    /** Restarts a failed or stopped execution: its instance continues from the last committed chunk. */
    public JobExecution restart(long executionId) {
        JobExecution execution = execution(executionId);
        if (!jobs.containsKey(execution.getJobInstance().getJobName())) {
            throw new JobControlException(JobControlException.Kind.NOT_FOUND,
                "job " + execution.getJobInstance().getJobName() + " is not known here");
        }
        if (execution.isRunning()) {
            if (!stale(execution)) {
                throw new JobControlException(JobControlException.Kind.CONFLICT, "execution " + executionId
                    + " is still running; stop it first");
            }
            // its instance died mid-run: mark it FAILED so that it can be restarted
            log.warn("execution {} shows no progress for over {}; recovering it as FAILED", executionId, staleAfter);
            execution = operator.recover(execution);
        }
        try {
            JobExecution restarted = operator.restart(execution);
            log.info("restarted execution {} as {}", executionId, restarted.getId());
            return restarted;
        } catch (Exception e) {
            throw new JobControlException(JobControlException.Kind.CONFLICT,
                "execution " + executionId + " cannot be restarted: " + e.getMessage());
        }
    }

    public JobProgress progress(long executionId) {
        JobExecution execution = execution(executionId);
        Long pending = null;
        if (DrainJobConfiguration.JOB_NAME.equals(execution.getJobInstance().getJobName())) {
            String queueName = execution.getJobParameters().getString("queue", WorkQueue.DEFAULT_QUEUE);
            pending = execution.isRunning() ? queue.pending(queueName) : 0L;
        } else if (execution.isRunning()) {
            // maintenance jobs record their total in the step context
            for (StepExecution step : execution.getStepExecutions()) {
                if (step.getExecutionContext().containsKey(MaintenanceTasklet.TOTAL)) {
                    pending = Math.max(0, step.getExecutionContext().getLong(MaintenanceTasklet.TOTAL)
                        - step.getWriteCount());
                }
            }
        }
        return ProgressCalculator.of(execution, pending, Instant.now(), executionPath(executionId));
    }

    /** Executions of the job currently running anywhere (the job repository is shared). */
    public List<JobExecution> running(String jobName) {
        return repository.findRunningJobExecutions(job(jobName).getName()).stream()
            .filter(e -> !stale(e))
            .sorted(Comparator.comparingLong(JobExecution::getId)).toList();
    }

    /** Executions still marked running whose instance died (no progress for {@code staleAfter}); restartable. */
    public List<JobExecution> stale(String jobName) {
        return repository.findRunningJobExecutions(job(jobName).getName()).stream()
            .filter(this::stale)
            .sorted(Comparator.comparingLong(JobExecution::getId)).toList();
    }

    boolean stale(JobExecution execution) {
        LocalDateTime last = execution.getLastUpdated() != null ? execution.getLastUpdated() : execution.getCreateTime();
        for (StepExecution step : execution.getStepExecutions()) {
            if (step.getLastUpdated() != null && (last == null || step.getLastUpdated().isAfter(last))) {
                last = step.getLastUpdated();
            }
        }
        return last != null && last.isBefore(LocalDateTime.now().minus(staleAfter));
    }

    /** Whether this instance (worker) has a run of the job in progress. */
    public boolean runningHere(String jobName) {
        return running(jobName).stream()
            .anyMatch(e -> workerId.equals(e.getJobParameters().getString("worker")));
    }

    public JobExecution lastExecution(String jobName) {
        var instance = repository.getLastJobInstance(job(jobName).getName());
        return instance == null ? null : repository.getLastJobExecution(instance);
    }

    public static String executionPath(long executionId) {
        return "/api/v1/jobs/executions/" + executionId;
    }

    private Job job(String jobName) {
        Job job = jobs.get(jobName);
        if (job == null) {
            throw new JobControlException(JobControlException.Kind.NOT_FOUND,
                "no such job; known jobs: " + jobs.keySet());
        }
        return job;
    }

    private JobExecution execution(long executionId) {
        JobExecution execution;
        try {
            execution = repository.getJobExecution(executionId);
        } catch (EmptyResultDataAccessException e) {
            execution = null;
        }
        if (execution == null) {
            throw new JobControlException(JobControlException.Kind.NOT_FOUND, "no job execution " + executionId);
        }
        return execution;
    }

    private JobParameters parameters(String jobName, Map<String, String> given) {
        JobParametersBuilder builder = new JobParametersBuilder()
            .addString("runId", UUID.randomUUID().toString())
            .addString("worker", workerId, false);
        if (DrainJobConfiguration.JOB_NAME.equals(jobName)) {
            for (String name : given.keySet()) {
                if (!Set.of("queue", "maxItems").contains(name)) {
                    throw new JobControlException(JobControlException.Kind.INVALID,
                        "unknown parameter of " + jobName + " (known: queue, maxItems)");
                }
            }
            String queueName = given.getOrDefault("queue", WorkQueue.DEFAULT_QUEUE);
            if (!QUEUE_NAME.matcher(queueName).matches()) {
                throw new JobControlException(JobControlException.Kind.INVALID,
                    "queue must be 1-50 letters, digits or _.:-");
            }
            builder.addString("queue", queueName);
            if (given.containsKey("maxItems")) {
                try {
                    long max = Long.parseLong(given.get("maxItems"));
                    if (max < 1) {
                        throw new NumberFormatException();
                    }
                    builder.addLong("maxItems", max);
                } catch (NumberFormatException e) {
                    throw new JobControlException(JobControlException.Kind.INVALID, "maxItems must be a positive integer");
                }
            }
        } else if (KnowledgeReindex.JOB_NAME.equals(jobName)) {
            for (Map.Entry<String, String> p : given.entrySet()) {
                if (!p.getKey().equals("reembed") || !Set.of("true", "false").contains(p.getValue())) {
                    throw new JobControlException(JobControlException.Kind.INVALID,
                        jobName + " takes one parameter, reembed (true or false)");
                }
                builder.addString("reembed", p.getValue());
            }
        } else if (!given.isEmpty()) {
            throw new JobControlException(JobControlException.Kind.INVALID, jobName + " takes no parameters");
        }
        return builder.toJobParameters();
    }
}
