package io.sluice.api.problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.net.ServerSocket;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.Driver;
import org.redisson.client.RedisTimeoutException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A store that cannot answer is a 503 with Retry-After, not a 500; on the front door every handler's problem
 * comes in OpenAI's shape. The database here is a real PostgreSQL driver pointed at a port nobody listens on.
 */
class StoreUnavailableProblemTest {

    private MockMvc mvc;

    @BeforeEach
    void mvc() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        var dataSource = new SimpleDriverDataSource(new Driver(),
            "jdbc:postgresql://127.0.0.1:" + closedPort + "/sluice?connectTimeout=2", "sluice", "unused");
        mvc = MockMvcBuilders.standaloneSetup(new FailingEndpoints(JdbcClient.create(dataSource)))
            .setControllerAdvice(new ApiExceptionHandler(), new OpenAiProblemShape()).build();
    }

    @Test
    void aDatabaseThatCannotBeReachedIsA503WithRetryAfterAndAStableType() throws Exception {
        MvcResult result = mvc.perform(get("/api/v1/probe/db")).andReturn();

        assertThat(result.getResponse().getStatus()).isEqualTo(503);
        assertThat(result.getResponse().getHeader("Retry-After")).isEqualTo("2");
        assertThat(result.getResponse().getContentType()).startsWith("application/problem+json");
        JsonNode problem = json(result);
        assertThat(problem.path("type").asString()).isEqualTo("https://sluice.dev/problems/store-unavailable");
        assertThat(problem.path("detail").asString()).doesNotContain("127.0.0.1").doesNotContain("jdbc");
    }

    @Test
    void redisTimingOutIsTheSame503() throws Exception {
        MvcResult result = mvc.perform(get("/api/v1/probe/redis")).andReturn();

        assertThat(result.getResponse().getStatus()).isEqualTo(503);
        assertThat(result.getResponse().getHeader("Retry-After")).isEqualTo("2");
        assertThat(json(result).path("type").asString()).isEqualTo("https://sluice.dev/problems/store-unavailable");
    }

    @Test
    void onTheFrontDoorTheSameFailureComesInOpenAisShapeWithItsRetryAfter() throws Exception {
        MvcResult result = mvc.perform(get("/v1/probe/db")).andReturn();

        assertThat(result.getResponse().getStatus()).isEqualTo(503);
        assertThat(result.getResponse().getHeader("Retry-After")).isEqualTo("2");
        assertThat(result.getResponse().getContentType()).startsWith("application/json");
        JsonNode error = json(result).path("error");
        assertThat(error.path("type").asString()).isEqualTo("server_error");
        assertThat(error.path("code").asString()).isEqualTo("store_unavailable");
        assertThat(error.path("message").asString()).contains("retry");
    }

    @Test
    void anUnexpectedFailureIsA500InEachPathsOwnShapeAndLeaksNothing() throws Exception {
        MvcResult api = mvc.perform(get("/api/v1/probe/bug")).andReturn();
        MvcResult frontDoor = mvc.perform(get("/v1/probe/bug")).andReturn();

        assertThat(api.getResponse().getStatus()).isEqualTo(500);
        assertThat(api.getResponse().getHeader("Retry-After")).isNull();
        assertThat(json(api).path("type").asString()).isEqualTo("https://sluice.dev/problems/internal");
        assertThat(frontDoor.getResponse().getStatus()).isEqualTo(500);
        assertThat(json(frontDoor).path("error").path("code").asString()).isEqualTo("internal");
        assertThat(frontDoor.getResponse().getContentAsString()).doesNotContain("secret-state");
    }

    private static JsonNode json(MvcResult result) throws Exception {
        return JsonMapper.shared().readTree(result.getResponse().getContentAsString());
    }

    @RestController
    static class FailingEndpoints {

        private final JdbcClient jdbc;

        FailingEndpoints(JdbcClient jdbc) {
            this.jdbc = jdbc;
        }

        @GetMapping({"/api/v1/probe/{what}", "/v1/probe/{what}"})
        String probe(@PathVariable String what) {
            return switch (what) {
                case "db" -> jdbc.sql("SELECT 1").query(String.class).single();
                case "redis" -> throw new RedisTimeoutException("Command execution timeout for command: (EVALSHA)");
                default -> throw new IllegalStateException("secret-state");
            };
        }
    }
}
