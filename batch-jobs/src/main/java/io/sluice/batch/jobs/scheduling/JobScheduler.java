package io.sluice.batch.jobs.scheduling;

import java.util.ArrayList;
import java.util.List;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;

import io.sluice.batch.SluiceBatchProperties;
import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.jobs.JobControlException;

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
    private final Set<String> clusterWide;
    private ThreadPoolTaskScheduler scheduler;
    private final List<ScheduledFuture<?>> scheduled = new ArrayList<>();

    public JobScheduler(JobControl jobs, Map<String, SluiceBatchProperties.JobSchedule> schedules) {
        this(jobs, schedules, Set.of());
    }

    /** @param clusterWide jobs run once per tick for the whole cluster (the others run on every instance) */
    public JobScheduler(JobControl jobs, Map<String, SluiceBatchProperties.JobSchedule> schedules,
            Set<String> clusterWide) {
        this.jobs = jobs;
        this.schedules = schedules;
        this.clusterWide = Set.copyOf(clusterWide);
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
            if (clusterWide.contains(name)) {
                if (!jobs.running(name).isEmpty()) {
                    log.debug("job {}: running on some instance, tick skipped", name);
                    return;
                }
                jobs.launchOccurrence(name, occurrence(schedules.get(name).cron(), LocalDateTime.now()).toString());
                return;
            }
            if (jobs.runningHere(name)) {
                log.debug("job {}: still running here, tick skipped", name);
                return;
            }
            jobs.launchScheduled(name);
        } catch (JobControlException e) {
            // another instance launched this occurrence of a cluster-wide job first
            log.info("job {}: not launched here: {}", name, e.getMessage());
        } catch (RuntimeException e) {
            log.warn("job {}: scheduled launch failed: {}", name, e.getMessage());
        }
    }

    /** The cron's latest fire time at or before now (what every instance's tick for this firing agrees on). */
    static LocalDateTime occurrence(String cron, LocalDateTime now) {
        CronExpression expression = CronExpression.parse(cron);
        LocalDateTime last = null;
        for (LocalDateTime t = expression.next(now.minusMinutes(5)); t != null && !t.isAfter(now);
                t = expression.next(t)) {
            last = t;
        }
        return last != null ? last : now.truncatedTo(ChronoUnit.SECONDS);
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
