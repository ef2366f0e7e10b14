package io.sluice.batch;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Spring Batch defaults that must hold wherever batch-jobs runs, as the lowest-precedence property
 * source (configuration can still override them):
 * <ul>
 * <li>{@code spring.batch.job.enabled=false}: Boot never runs jobs at startup; jobs start from the
 * schedule or the API only.</li>
 * <li>{@code spring.batch.jdbc.initialize-schema=never}: the job repository schema comes from Flyway
 * (db/migration/V3).</li>
 * </ul>
 */
public class BatchDefaults implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment.getPropertySources().addLast(new MapPropertySource("sluiceBatchDefaults", Map.of(
            "spring.batch.job.enabled", "false",
            "spring.batch.jdbc.initialize-schema", "never")));
    }
}
