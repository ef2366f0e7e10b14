package io.sluice.batch.progress;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;

/** Derives {@link JobProgress} from a job execution's committed step counts. */
public final class ProgressCalculator {

    private ProgressCalculator() {
    }

    /**
     * @param pending items not done yet that this execution would still do (null = unknown)
     * @param now     the clock reading to measure elapsed time against
     */
    public static JobProgress of(JobExecution execution, Long pending, Instant now, String statusUrl) {
        long done = 0;
        long skipped = 0;
        for (StepExecution step : execution.getStepExecutions()) {
            done += step.getWriteCount() + step.getSkipCount();
            skipped += step.getSkipCount();
        }
        boolean running = execution.isRunning();
        Instant start = instant(execution.getStartTime());
        Instant end = instant(execution.getEndTime());
        double seconds = start == null ? 0 : Duration.between(start, end != null ? end : now).toMillis() / 1000.0;
        double rate = seconds > 0 ? done / seconds : 0;
        // spelled out: the one-line conditional unboxed a null total (a running job with no known
        // remainder) and threw, so the launch API answered 500 for a job that was running (issue 14, M6)
        Long total;
        if (pending != null) {
            total = done + (running ? pending.longValue() : 0L);
        } else {
            total = running ? null : Long.valueOf(done);
        }
        Long eta;
        if (!running) {
            eta = 0L;
        } else if (total == null || rate <= 0) {
            eta = null;
        } else {
            eta = (long) Math.ceil((total - done) / rate);
        }
        Integer percent = total == null ? null : total == 0 ? 100 : (int) Math.min(100, done * 100 / total);
        Map<String, String> parameters = new LinkedHashMap<>();
        execution.getJobParameters().parameters().forEach(p -> parameters.put(p.name(), String.valueOf(p.value())));
        String exitCode = execution.getExitStatus() == null ? null : execution.getExitStatus().getExitCode();
        String exitDescription = execution.getExitStatus() == null ? null
            : blankToNull(execution.getExitStatus().getExitDescription());
        return new JobProgress(execution.getId(), execution.getJobInstance().getInstanceId(),
            execution.getJobInstance().getJobName(), execution.getStatus() == null ? "UNKNOWN" : execution.getStatus().name(),
            exitCode, exitDescription, parameters, start, end, done, total, skipped,
            Math.round(rate * 100) / 100.0, eta, percent, statusUrl);
    }

    private static Instant instant(LocalDateTime time) {
        return time == null ? null : time.atZone(ZoneId.systemDefault()).toInstant();
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }
}
