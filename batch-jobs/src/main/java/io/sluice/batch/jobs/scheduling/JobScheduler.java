package io.sluice.batch.jobs.scheduling;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;

import io.sluice.batch.SluiceBatchProperties;
import io.sluice.batch.jobs.JobControl;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.scheduling.support.CronTrigger;

/**
 * Launches jobs on the cron of {@code sluice.batch.jobs.<job>.cron} when {@code enabled}. A tick is
 * skipped while this instance still runs the job (every instance drains the shared queue on its own
 * schedule; SKIP LOCKED keeps them apart). A bad cron fails startup with a message naming the job; a
 * schedule for a job that does not exist (yet) is logged and ignored. Uses a scheduler thread of its
 * own, not a bean, so it never takes over the application's task scheduler.
 */
public class JobScheduler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(JobScheduler.class);

    private final JobControl jobs;
    private final Map<String, SluiceBatchProperties.JobSchedule> schedules;
    private ThreadPoolTaskScheduler scheduler;
    private final List<ScheduledFuture<?>> scheduled = new ArrayList<>();

    public JobScheduler(JobControl jobs, Map<String, SluiceBatchProperties.JobSchedule> schedules) {
        this.jobs = jobs;
        this.schedules = schedules;
        schedules.forEach((name, schedule) -> {
            if (schedule.cron() != null && !schedule.cron().isBlank() && !CronExpression.isValidExpression(schedule.cron())) {
                throw new IllegalArgumentException("sluice.batch.jobs." + name + ".cron is not a valid cron expression: '"
                    + schedule.cron() + "' (six fields, seconds first, e.g. \"0 */5 * * * *\")");
            }
        });
    }

    @Override
    public synchronized void start() {
        scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(1);
        scheduler.setThreadNamePrefix("batch-cron-");
        scheduler.setDaemon(true);
        scheduler.initialize();
        schedules.forEach((name, schedule) -> {
            if (!jobs.exists(name)) {
                log.warn("sluice.batch.jobs.{} is configured but no such job exists here; ignored", name);
            } else if (!schedule.enabled() || schedule.cron() == null || schedule.cron().isBlank()) {
                log.info("job {}: not scheduled (enabled={}, cron={})", name, schedule.enabled(), schedule.cron());
            } else {
                scheduled.add(scheduler.schedule(() -> tick(name), new CronTrigger(schedule.cron())));
                log.info("job {}: scheduled on cron '{}'", name, schedule.cron());
            }
        });
    }

    void tick(String name) {
        try {
            if (jobs.runningHere(name)) {
                log.debug("job {}: still running here, tick skipped", name);
                return;
            }
            jobs.launch(name, Map.of());
        } catch (RuntimeException e) {
            log.warn("job {}: scheduled launch failed: {}", name, e.getMessage());
        }
    }

    @Override
    public synchronized void stop() {
        scheduled.forEach(f -> f.cancel(false));
        scheduled.clear();
        if (scheduler != null) {
            scheduler.shutdown();
            scheduler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }
}
