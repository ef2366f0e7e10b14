package io.sluice.batch.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import io.sluice.batch.support.BatchContextTest;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class TaskApiTest extends BatchContextTest {

    @Autowired
    WebApplicationContext context;

    @Autowired
    JdbcTemplate jdbc;

    MockMvc mvc;

    @BeforeEach
    void setUp() {
        mvc = MockMvcBuilders.webAppContextSetup(context).build();
    }

    private long rowsWithKey(String key) {
        return jdbc.queryForObject("SELECT count(*) FROM work_item WHERE idempotency_key = ?", Long.class, key);
    }

    private static String key() {
        return "api-" + UUID.randomUUID();
    }

    @Test
    void acceptedTaskHasAnIdAndAStatusUrlShowingItsState() throws Exception {
        String key = key();
        MvcResult created = mvc.perform(post("/api/v1/tasks").contentType(MediaType.APPLICATION_JSON).content("""
                {"type": "summarize_conversation", "idempotencyKey": "%s", "priority": 2,
                 "payload": {"conversationId": "%s", "maxWords": 80}}""".formatted(key, UUID.randomUUID())))
            .andExpect(status().isAccepted())
            .andExpect(header().string("Location", containsString("/api/v1/tasks/")))
            .andExpect(jsonPath("$.id").isString())
            .andExpect(jsonPath("$.state").value("QUEUED"))
            .andExpect(jsonPath("$.priority").value(2))
            .andReturn();
        JsonNode body = JsonMapper.shared().readTree(created.getResponse().getContentAsString());
        String statusUrl = body.get("statusUrl").asString();

        mvc.perform(get(statusUrl))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.id").value(body.get("id").asString()))
            .andExpect(jsonPath("$.type").value("summarize_conversation"))
            .andExpect(jsonPath("$.state").value("QUEUED"))
            .andExpect(jsonPath("$.progress").value(0));
        assertThat(rowsWithKey(key)).isEqualTo(1);
    }

    @Test
    void duplicateSubmitReturnsTheSameTaskAndEnqueuesOnce() throws Exception {
        String key = key();
        String body = """
            {"type": "deferred_answer", "payload": {"question": "Where is my parcel?"}}""";
        String first = mvc.perform(post("/api/v1/tasks").header("Idempotency-Key", key)
                .contentType(MediaType.APPLICATION_JSON).content(body))
            .andExpect(status().isAccepted()).andReturn().getResponse().getContentAsString();
        String second = mvc.perform(post("/api/v1/tasks").header("Idempotency-Key", key)
                .contentType(MediaType.APPLICATION_JSON).content(body))
            .andExpect(status().isOk()).andReturn().getResponse().getContentAsString();

        assertThat(JsonMapper.shared().readTree(second).get("id")).isEqualTo(JsonMapper.shared().readTree(first).get("id"));
        assertThat(rowsWithKey(key)).isEqualTo(1);
    }

    @Test
    void sameKeyForADifferentTaskIsAConflict() throws Exception {
        String key = key();
        mvc.perform(post("/api/v1/tasks").contentType(MediaType.APPLICATION_JSON).content("""
                {"type": "deferred_answer", "idempotencyKey": "%s", "payload": {"question": "one"}}""".formatted(key)))
            .andExpect(status().isAccepted());
        mvc.perform(post("/api/v1/tasks").contentType(MediaType.APPLICATION_JSON).content("""
                {"type": "deferred_answer", "idempotencyKey": "%s", "payload": {"question": "two"}}""".formatted(key)))
            .andExpect(status().isConflict())
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/idempotency-conflict"));
        assertThat(rowsWithKey(key)).isEqualTo(1);
    }

    @Test
    void unknownTaskTypeIs400AndNothingIsEnqueued() throws Exception {
        String key = key();
        mvc.perform(post("/api/v1/tasks").contentType(MediaType.APPLICATION_JSON).content("""
                {"type": "mine_bitcoin", "idempotencyKey": "%s", "payload": {}}""".formatted(key)))
            .andExpect(status().isBadRequest())
            .andExpect(header().string("Content-Type", containsString("application/problem+json")))
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/unknown-task-type"))
            .andExpect(jsonPath("$.detail").value(containsString("summarize_conversation")));
        assertThat(rowsWithKey(key)).isZero();
    }

    @Test
    void missingPayloadFieldsAre400NamingEachFieldAndNothingIsEnqueued() throws Exception {
        String key = key();
        mvc.perform(post("/api/v1/tasks").contentType(MediaType.APPLICATION_JSON).content("""
                {"type": "summarize_document", "idempotencyKey": "%s", "payload": {"maxWords": 5, "colour": "red"}}""".formatted(key)))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/invalid-request"))
            .andExpect(jsonPath("$.errors", hasItem("payload.documentId is required")))
            .andExpect(jsonPath("$.errors", hasItem("payload.maxWords must be an integer between 10 and 1000")))
            .andExpect(jsonPath("$.errors", hasItem(containsString("payload.colour is not a field"))));
        mvc.perform(post("/api/v1/tasks").contentType(MediaType.APPLICATION_JSON).content("""
                {"type": "summarize_conversation", "idempotencyKey": "%s", "payload": {"conversationId": "not-a-uuid"}}""".formatted(key)))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.errors", hasItem("payload.conversationId must be a UUID")));
        mvc.perform(post("/api/v1/tasks").contentType(MediaType.APPLICATION_JSON).content("""
                {"type": "deferred_answer", "idempotencyKey": "%s"}""".formatted(key)))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.errors", hasItem("payload is required")));
        assertThat(rowsWithKey(key)).isZero();
    }

    @Test
    void oversizedPayloadIs400AndNothingIsEnqueued() throws Exception {
        String key = key();
        String huge = "x".repeat(20_000);
        mvc.perform(post("/api/v1/tasks").contentType(MediaType.APPLICATION_JSON).content("""
                {"type": "deferred_answer", "idempotencyKey": "%s", "payload": {"question": "%s"}}""".formatted(key, huge)))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/task-payload-too-large"));
        assertThat(rowsWithKey(key)).isZero();
    }

    @Test
    void malformedJsonAndBadPriorityAre400() throws Exception {
        mvc.perform(post("/api/v1/tasks").contentType(MediaType.APPLICATION_JSON).content("{\"type\": "))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/malformed-request"));
        String key = key();
        mvc.perform(post("/api/v1/tasks").contentType(MediaType.APPLICATION_JSON).content("""
                {"type": "deferred_answer", "idempotencyKey": "%s", "priority": 12, "payload": {"question": "hi"}}""".formatted(key)))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/invalid-request"));
        assertThat(rowsWithKey(key)).isZero();
    }

    @Test
    void unknownTaskIs404Problem() throws Exception {
        mvc.perform(get("/api/v1/tasks/" + UUID.randomUUID()))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/not-found"));
        mvc.perform(get("/api/v1/tasks/42"))
            .andExpect(status().isBadRequest());
    }
}
