package io.sluice.batch.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.UUID;

import io.sluice.batch.queue.NewWorkItem;
import io.sluice.batch.queue.WorkQueue;
import io.sluice.batch.support.BatchContextTest;
import io.sluice.batch.support.FakeLlmGateway;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class JobApiTest extends BatchContextTest {

    @Autowired
    WebApplicationContext context;

    @Autowired
    WorkQueue queue;

    @Autowired
    FakeLlmGateway gateway;

    MockMvc mvc;

    @BeforeEach
    void setUp() {
        mvc = MockMvcBuilders.webAppContextSetup(context).build();
    }

    @AfterEach
    void reset() {
        gateway.reset();
    }

    private JsonNode json(String body) {
        return JsonMapper.shared().readTree(body);
    }

    private JsonNode progress(String url) throws Exception {
        return json(mvc.perform(get(url)).andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
    }

    @Test
    void launchRunsAsynchronouslyAndProgressShowsDoneTotalRateAndEta() throws Exception {
        String q = "t-" + UUID.randomUUID().toString().substring(0, 12);
        for (int i = 0; i < 60; i++) {
            queue.enqueue(NewWorkItem.of(q, "deferred_answer", "{\"question\": \"" + q + " " + i + "\"}"));
        }
        gateway.latency(Duration.ofMillis(20));

        String launched = mvc.perform(post("/api/v1/jobs/work-queue-drain/executions")
                .contentType(MediaType.APPLICATION_JSON).content("{\"parameters\": {\"queue\": \"" + q + "\"}}"))
            .andExpect(status().isAccepted())
            .andExpect(header().string("Location", containsString("/api/v1/jobs/executions/")))
            .andExpect(jsonPath("$.job").value("work-queue-drain"))
            .andExpect(jsonPath("$.parameters.queue").value(q))
            .andReturn().getResponse().getContentAsString();
        String statusUrl = json(launched).get("statusUrl").asString();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
            .until(() -> "COMPLETED".equals(progress(statusUrl).get("status").asString()));
        JsonNode done = progress(statusUrl);
        assertThat(done.get("done").asLong()).isEqualTo(60);
        assertThat(done.get("total").asLong()).isEqualTo(60);
        assertThat(done.get("percent").asInt()).isEqualTo(100);
        assertThat(done.get("ratePerSecond").asDouble()).isPositive();
        assertThat(done.get("etaSeconds").asLong()).isZero();

        // a completed run cannot be stopped or restarted
        String id = statusUrl.substring(statusUrl.lastIndexOf('/') + 1);
        mvc.perform(post("/api/v1/jobs/executions/" + id + "/stop"))
            .andExpect(status().isConflict())
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/job-state-conflict"));
        mvc.perform(post("/api/v1/jobs/executions/" + id + "/restart"))
            .andExpect(status().isConflict());

        mvc.perform(get("/api/v1/jobs"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$[*].name").value(org.hamcrest.Matchers.hasItems("work-queue-drain",
                "faq-snapshot-rebuild")));
    }

    @Test
    void aRunningDrainCanBeStoppedAndRestarted() throws Exception {
        String q = "t-" + UUID.randomUUID().toString().substring(0, 12);
        for (int i = 0; i < 200; i++) {
            queue.enqueue(NewWorkItem.of(q, "deferred_answer", "{\"question\": \"" + q + " " + i + "\"}"));
        }
        gateway.latency(Duration.ofMillis(50));
        String launched = mvc.perform(post("/api/v1/jobs/work-queue-drain/executions")
                .contentType(MediaType.APPLICATION_JSON).content("{\"parameters\": {\"queue\": \"" + q + "\"}}"))
            .andExpect(status().isAccepted()).andReturn().getResponse().getContentAsString();
        long id = json(launched).get("executionId").asLong();
        String statusUrl = "/api/v1/jobs/executions/" + id;
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
            .until(() -> progress(statusUrl).get("done").asLong() > 0);
        JsonNode running = progress(statusUrl);
        assertThat(running.get("status").asString()).isEqualTo("STARTED");
        assertThat(running.get("total").asLong()).isEqualTo(200);

        mvc.perform(post(statusUrl + "/stop")).andExpect(status().isAccepted());
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
            .until(() -> "STOPPED".equals(progress(statusUrl).get("status").asString()));
        long pendingAfterStop = queue.pending(q);
        assertThat(pendingAfterStop).isPositive();
        assertThat(queue.depth(q)).doesNotContainKey(io.sluice.batch.queue.WorkState.RUNNING);

        gateway.latency(Duration.ZERO);
        String restarted = mvc.perform(post(statusUrl + "/restart")).andExpect(status().isAccepted())
            .andReturn().getResponse().getContentAsString();
        String restartedUrl = json(restarted).get("statusUrl").asString();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
            .until(() -> "COMPLETED".equals(progress(restartedUrl).get("status").asString()));
        assertThat(queue.pending(q)).isZero();
        assertThat(gateway.allCalls().keySet().stream().filter(p -> p.startsWith(q)).count()).isEqualTo(200);
    }

    @Test
    void unknownJobsExecutionsAndParametersAreProblems() throws Exception {
        mvc.perform(post("/api/v1/jobs/no-such-job/executions"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/not-found"));
        mvc.perform(get("/api/v1/jobs/executions/999999999"))
            .andExpect(status().isNotFound());
        mvc.perform(post("/api/v1/jobs/work-queue-drain/executions").contentType(MediaType.APPLICATION_JSON)
                .content("{\"parameters\": {\"maxItems\": \"-3\"}}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.detail").value("maxItems must be a positive integer"));
        mvc.perform(post("/api/v1/jobs/work-queue-drain/executions").contentType(MediaType.APPLICATION_JSON)
                .content("{\"parameters\": {\"colour\": \"red\"}}"))
            .andExpect(status().isBadRequest());
    }
}
