package io.sluice.batch.api;

import java.net.URI;
import java.util.List;
import java.util.Map;

import io.sluice.batch.SluiceBatchProperties;
import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.progress.JobProgress;

import org.springframework.batch.core.job.JobExecution;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Jobs for operators and the console: list, launch, stop, restart, progress.
 *
 * <pre>
 * GET  /api/v1/jobs                              jobs, schedules, running executions, last execution
 * POST /api/v1/jobs/{job}/executions             launch (body: {"parameters": {...}}, optional) -> 202
 * GET  /api/v1/jobs/executions/{id}              status and progress (done/total, rate, ETA)
 * POST /api/v1/jobs/executions/{id}/stop         ask a running execution to stop -> 202
 * POST /api/v1/jobs/executions/{id}/restart      restart a failed/stopped execution, or a stale one whose
 *                                                instance died (no progress for a lease) -> 202 (new execution)
 * </pre>
 */
@RestController
@RequestMapping(path = "/api/v1/jobs", produces = MediaType.APPLICATION_JSON_VALUE)
public class JobController {

    /** Body of a launch. */
    public record LaunchRequest(Map<String, String> parameters) {
    }

    /** A job as listed. */
    public record JobView(String name, boolean scheduled, String cron, List<Long> runningExecutions,
            List<Long> staleExecutions, JobProgress lastExecution) {
    }

    private final JobControl jobs;
    private final SluiceBatchProperties properties;

    public JobController(JobControl jobs, SluiceBatchProperties properties) {
        this.jobs = jobs;
        this.properties = properties;
    }

    @GetMapping
    public List<JobView> list() {
        return jobs.jobNames().stream().map(name -> {
            SluiceBatchProperties.JobSchedule schedule = properties.schedule(name);
            JobExecution last = jobs.lastExecution(name);
            return new JobView(name, schedule != null && schedule.enabled() && schedule.cron() != null,
                schedule == null ? null : schedule.cron(),
                jobs.running(name).stream().map(JobExecution::getId).toList(),
                jobs.stale(name).stream().map(JobExecution::getId).toList(),
                last == null ? null : jobs.progress(last.getId()));
        }).toList();
    }

    @PostMapping("/{job}/executions")
    public ResponseEntity<JobProgress> launch(@PathVariable("job") String job,
            @RequestBody(required = false) LaunchRequest request) {
        JobExecution execution = jobs.launch(job, request == null ? Map.of() : request.parameters());
        return accepted(execution.getId()); // 202 with the execution id: a retry never needs to launch again
    }

    @GetMapping("/executions/{id}")
    public JobProgress progress(@PathVariable("id") long id) {
        return jobs.progress(id);
    }

    @PostMapping("/executions/{id}/stop")
    public ResponseEntity<JobProgress> stop(@PathVariable("id") long id) {
        jobs.stop(id);
        return accepted(id);
    }

    @PostMapping("/executions/{id}/restart")
    public ResponseEntity<JobProgress> restart(@PathVariable("id") long id) {
        return accepted(jobs.restart(id).getId());
    }

    /**
     * 202 with where to follow the execution. Once launched, the answer never fails: if its progress cannot
     * be read this instant, the body holds just the id and status URL (the work is running either way).
     */
    private ResponseEntity<JobProgress> accepted(long executionId) {
        JobProgress progress;
        try {
            progress = jobs.progress(executionId);
        } catch (RuntimeException e) {
            log.warn("job execution {}: progress not readable right after the change: {}", executionId, e.toString());
            progress = new JobProgress(executionId, 0, null, "STARTING", null, null, Map.of(), null, null, 0, null, 0, 0,
                null, null, JobControl.executionPath(executionId));
        }
        return ResponseEntity.status(HttpStatus.ACCEPTED)
            .location(URI.create(JobControl.executionPath(executionId)))
            .body(progress);
    }

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(JobController.class);
}
