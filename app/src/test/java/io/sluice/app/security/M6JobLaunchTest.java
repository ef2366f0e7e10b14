package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * M6: POST /api/v1/jobs/{job}/executions answered 500 (a NullPointerException computing the progress of
 * a running job with no known remainder) while the job ran, so a client's retry ran it again. Now the
 * launch answers 202 with the execution id whatever the progress shows, and the job runs once.
 */
class M6JobLaunchTest extends SecuritySuite {

    @Test
    void aLaunchAnswers202WithTheExecutionIdAndTheJobRunsOnce() {
        Client jobs = client("jobs-runner", "jobs");
        long before = executions();

        HttpResponse<String> launched = jobs.http().postJson("/api/v1/jobs/faq-snapshot-rebuild/executions", "{}");

        assertThat(launched.statusCode()).as(launched.body()).isEqualTo(202);
        long id = json(launched).get("executionId").asLong();
        assertThat(id).isPositive();
        assertThat(launched.headers().firstValue("Location").orElse("")).endsWith("/api/v1/jobs/executions/" + id);
        await().atMost(Duration.ofSeconds(60)).until(() ->
            !json(jobs.http().get("/api/v1/jobs/executions/" + id)).get("status").asString().matches("STARTING|STARTED"));
        assertThat(executions()).isEqualTo(before + 1);
    }

    private long executions() {
        return jdbc.sql("""
                SELECT count(*) FROM batch_job_execution e JOIN batch_job_instance i ON i.job_instance_id = e.job_instance_id
                WHERE i.job_name = 'faq-snapshot-rebuild'""").query(Long.class).single();
    }
}
