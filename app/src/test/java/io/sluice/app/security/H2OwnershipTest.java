package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * H2: tasks were not tied to a client. Client B created summarize_conversation for client A's session
 * id, read A's conversation from GET /api/v1/tasks/{id}, read A's deferred-answer ticket, and A's
 * idempotency key answered B (409, or A's task). Now every task, ticket, session and key belongs to the
 * client that made it: another client's id is 404, another client's key is just another key.
 */
class H2OwnershipTest extends SecuritySuite {

    @Test
    void anotherClientsSessionTaskTicketAndIdempotencyKeyAreNotFoundOrNotShared() {
        Client a = client("shop-a", "chat", "tasks");
        Client b = client("attacker-b", "chat", "tasks");

        JsonAnswer chat = new JsonAnswer(a.http().postJson("/api/v1/chat",
            chat("a-customer", "我的地址是北京市海淀区中关村大街1号，订单备注：放门口")));
        String session = chat.text("sessionId");

        // B cannot summarize (and so read) A's conversation: not found, nothing queued
        HttpResponse<String> summarize = b.http().postJson("/api/v1/tasks", JSON.writeValueAsString(Map.of(
            "type", "summarize_conversation", "payload", Map.of("conversationId", session))));
        assertProblem(summarize, 404, "not-found");
        assertThat(jdbc.sql("SELECT count(*) FROM work_item WHERE client_id = ?").param(b.id()).query(Long.class).single())
            .isZero();
        assertProblem(b.http().get("/api/v1/sessions/" + session), 404, "not-found");

        // A's own summary task and a deferred-answer ticket of A are A's alone
        String key = "same-key-" + RUN;
        HttpResponse<String> mine = a.http().send("POST", "/api/v1/tasks", JSON.writeValueAsString(Map.of(
            "type", "summarize_conversation", "payload", Map.of("conversationId", session))),
            "Content-Type", "application/json", "Idempotency-Key", key);
        assertThat(mine.statusCode()).as(mine.body()).isEqualTo(202);
        String task = json(mine).get("id").asString();
        HttpResponse<String> ticket = a.http().postJson("/api/v1/tasks", JSON.writeValueAsString(Map.of(
            "type", "deferred_answer", "payload", Map.of("question", "发票什么时候开？", "conversationId", session))));
        assertThat(ticket.statusCode()).isEqualTo(202);
        String ticketId = json(ticket).get("id").asString();

        assertThat(a.http().get("/api/v1/tasks/" + task).statusCode()).isEqualTo(200);
        assertProblem(b.http().get("/api/v1/tasks/" + task), 404, "not-found");
        assertProblem(b.http().get("/api/v1/tasks/" + ticketId), 404, "not-found");

        // B using A's idempotency key gets a task of its own: never 409, never A's task
        HttpResponse<String> reused = b.http().send("POST", "/api/v1/tasks", JSON.writeValueAsString(Map.of(
            "type", "deferred_answer", "payload", Map.of("question", "别人的键"))),
            "Content-Type", "application/json", "Idempotency-Key", key);
        assertThat(reused.statusCode()).as(reused.body()).isEqualTo(202);
        assertThat(json(reused).get("id").asString()).isNotEqualTo(task);
        // ... while A reusing its own key still finds its own task
        HttpResponse<String> again = a.http().send("POST", "/api/v1/tasks", JSON.writeValueAsString(Map.of(
            "type", "summarize_conversation", "payload", Map.of("conversationId", session))),
            "Content-Type", "application/json", "Idempotency-Key", key);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again).get("id").asString()).isEqualTo(task);
    }

    private record JsonAnswer(HttpResponse<String> response) {
        String text(String field) {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return json(response).get(field).asString();
        }
    }
}
