package io.sluice.batch.support;

import java.util.HashMap;
import java.util.Map;

import io.sluice.batch.BatchJobsConfiguration;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The batch module on its own, against the real PostgreSQL of SLUICE_DB_URL and Redis of SLUICE_REDIS_URL,
 * with a fake gateway and the knowledge parts of {@link TestKnowledge}.
 * Flyway migrates the repository's db/migration first.
 */
@SpringBootApplication(scanBasePackageClasses = BatchJobsConfiguration.class)
@Import(TestKnowledge.class)
public class BatchTestApplication {

    @Bean
    FakeLlmGateway fakeLlmGateway() {
        return new FakeLlmGateway();
    }

    /** Interactive occupancy a test sets by hand (the gateway's real signal is tested separately). */
    @Bean
    SettableOccupancy settableOccupancy() {
        return new SettableOccupancy();
    }

    public static class SettableOccupancy implements io.sluice.batch.yield.InteractiveOccupancy {

        private volatile double value = -1;

        @Override
        public double occupancy() {
            return value;
        }

        public void set(double occupancy) {
            this.value = occupancy;
        }
    }

    /** Properties every batch test context uses (short backoff and linger so tests stay fast). */
    public static Map<String, Object> properties() {
        Map<String, Object> p = new HashMap<>();
        p.put("spring.datasource.url", TestServices.dbUrl());
        p.put("spring.flyway.locations", "filesystem:../db/migration");
        p.put("spring.flyway.out-of-order", "true"); // as the application: owner-numbered migrations arrive in any order
        p.put("spring.main.banner-mode", "off");
        p.put("sluice.batch.queue.backoff-base", "20ms");
        p.put("sluice.batch.queue.backoff-max", "100ms");
        p.put("sluice.batch.queue.saturated-delay", "20ms");
        p.put("sluice.batch.drain.linger", "3s");
        p.put("sluice.batch.drain.poll-interval", "25ms");
        p.put("sluice.batch.drain.chunk-size", "16");
        p.put("sluice.batch.drain.concurrency", "4");
        return p;
    }

    /** A second, independent instance (its own JobOperator, pools and worker id) sharing the database. */
    public static ConfigurableApplicationContext startInstance(String workerId) {
        return startInstance(workerId, Map.of());
    }

    /** As {@link #startInstance(String)}, with some properties set differently. */
    public static ConfigurableApplicationContext startInstance(String workerId, Map<String, Object> overrides) {
        Map<String, Object> p = properties();
        p.putAll(overrides);
        p.put("sluice.batch.worker-id", workerId);
        p.put("spring.main.web-application-type", "none");
        return new SpringApplicationBuilder(BatchTestApplication.class).properties(p).run();
    }
}
