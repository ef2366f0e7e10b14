package io.sluice.batch.yield;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.jobs.drain.DrainJobConfiguration;
import io.sluice.batch.queue.NewWorkItem;
import io.sluice.batch.queue.WorkQueue;
import io.sluice.batch.support.BatchContextTest;
import io.sluice.batch.support.BatchTestApplication.SettableOccupancy;
import io.sluice.batch.support.FakeLlmGateway;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.beans.factory.annotation.Autowired;

/** A running drain shrinks its in-flight batch calls to the floor while online is busy, and grows back. */
class DrainYieldsToOnlineTest extends BatchContextTest {

    @Autowired
    WorkQueue queue;

    @Autowired
    JobControl jobs;

    @Autowired
    FakeLlmGateway gateway;

    @Autowired
    SettableOccupancy occupancy;

    @Autowired
    BatchLaneThrottle throttle;

    @AfterEach
    void reset() {
        // leave the shared context's throttle at its ceiling for the other tests
        occupancy.set(0);
        await().atMost(Duration.ofSeconds(10)).until(() -> throttle.limit() == throttle.ceiling());
        occupancy.set(-1);
        gateway.reset();
    }

    @Test
    void batchInFlightDropsToTheFloorUnderOnlineLoadAndRecoversAfter() {
        String q = "t-" + UUID.randomUUID().toString().substring(0, 12);
        for (int i = 0; i < 400; i++) {
            queue.enqueue(NewWorkItem.of(q, "deferred_answer", "{\"question\": \"" + q + " " + i + "\"}"));
        }
        gateway.latency(Duration.ofMillis(40));
        occupancy.set(0.1);
        JobExecution run = jobs.launch(DrainJobConfiguration.JOB_NAME, Map.of("queue", q));
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> gateway.inFlight() == throttle.ceiling());

            occupancy.set(0.95); // online overload
            await().atMost(Duration.ofSeconds(5)).until(() -> throttle.limit() == throttle.floor());
            // calls already in flight finish; then no more than the floor run at once
            await().atMost(Duration.ofSeconds(5)).until(() -> gateway.inFlight() <= throttle.floor());
            assertThat(throttle.inFlight()).isLessThanOrEqualTo(throttle.floor());

            occupancy.set(0.1); // online quiet again
            await().atMost(Duration.ofSeconds(10)).until(() -> gateway.inFlight() == throttle.ceiling());
        } finally {
            jobs.stop(run.getId());
            await().atMost(Duration.ofSeconds(30)).until(() -> !jobs.progress(run.getId()).status().equals("STARTED")
                && !jobs.progress(run.getId()).status().equals("STOPPING"));
        }
    }
}
