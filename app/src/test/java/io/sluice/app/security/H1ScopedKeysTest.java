package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * H1: every API key had operator powers. Client B (a chat app's key) overwrote FAQ ref-001 with a phishing
 * answer that client A's customer was then served at F1, deleted documents, launched jobs, read candidates;
 * nothing was audited. Now a key holds scopes and operator endpoints need operator scopes; every change
 * made through the API is audited with the client as actor.
 */
class H1ScopedKeysTest extends SecuritySuite {

    private static final String PHISHING = "退款请访问 http://evil.example/refund 输入银行卡密码";

    @Test
    void aChatKeyCannotChangeKnowledgeLaunchJobsOrReadOperatorData_andTheOtherClientsCustomerIsServedTheRealAnswer() {
        Client a = client("shop-a", "chat", "openai");
        Client b = client("attacker-b", "chat", "openai");

        HttpResponse<String> overwrite = b.http().postJson("/api/v1/knowledge/faq", JSON.writeValueAsString(Map.of(
            "key", "ref-001", "question", "退款多久到账？", "answer", PHISHING)));
        assertProblem(overwrite, 403, "insufficient-scope");
        assertThat(json(overwrite).get("detail").asString()).contains("knowledge:write").doesNotContain("evil");
        assertProblem(b.http().send("DELETE", "/api/v1/knowledge/documents/anything", null), 403, "insufficient-scope");
        assertProblem(b.http().postJson("/api/v1/jobs/faq-snapshot-rebuild/executions", "{}"), 403, "insufficient-scope");
        assertProblem(b.http().get("/api/v1/faq/candidates"), 403, "insufficient-scope");
        assertProblem(b.http().get("/api/v1/faq/snapshots"), 403, "insufficient-scope");
        assertProblem(b.http().get("/api/v1/clients"), 403, "insufficient-scope");
        assertProblem(b.http().postJson("/api/v1/clients", "{\"name\":\"mine\",\"scopes\":[\"admin\"]}"), 403,
            "insufficient-scope");
        // default-deny: a path nobody mapped is an operator's
        assertProblem(b.http().get("/api/v1/not-mapped-anywhere"), 403, "insufficient-scope");

        HttpResponse<String> answer = a.http().postJson("/api/v1/chat", chat("a-customer", "退款多久到账？"));
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(json(answer).get("answer").asString()).doesNotContain("evil.example");
        assertThat(jdbc.sql("SELECT count(*) FROM faq_entry WHERE answer LIKE '%evil.example%'").query(Long.class).single())
            .isZero();
    }

    @Test
    void changesThroughTheApiAreAuditedWithTheClientAsActor() {
        Client editor = client("kb-editor", "knowledge:write");
        String key = "audit-" + RUN;

        HttpResponse<String> saved = editor.http().postJson("/api/v1/knowledge/faq", JSON.writeValueAsString(Map.of(
            "key", key, "question", "审计测试的问题是什么？", "answer", "第一版答案")));
        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(201);
        HttpResponse<String> changed = editor.http().postJson("/api/v1/knowledge/faq", JSON.writeValueAsString(Map.of(
            "key", key, "question", "审计测试的问题是什么？", "answer", "第二版答案")));
        assertThat(changed.statusCode()).isEqualTo(200);

        var entries = jdbc.sql("""
                SELECT action, actor, before, after FROM audit_log
                WHERE source = 'api' AND client_id = ? AND target LIKE ? ORDER BY id""")
            .params(editor.id(), "%" + key + "%")
            .query((rs, n) -> Map.of("action", rs.getString("action"), "actor", rs.getString("actor"),
                "before", String.valueOf(rs.getString("before")), "after", rs.getString("after")))
            .list();
        assertThat(entries).hasSize(2);
        assertThat(entries.get(1).get("action")).isEqualTo("faq.save");
        assertThat(entries.get(1).get("actor")).contains("client " + editor.id());
        assertThat(entries.get(1).get("before")).contains("第一版答案");
        assertThat(entries.get(1).get("after")).contains("第二版答案");

        // the client administration itself is audited too (the operator created the editor)
        assertThat(jdbc.sql("SELECT count(*) FROM audit_log WHERE source = 'api' AND action = 'client.create' AND target LIKE ?")
            .param("client " + editor.id() + " %").query(Long.class).single()).isEqualTo(1);
        // and an unmapped path is not found for the operator, as problem+json
        assertProblem(operator().get("/api/v1/not-mapped-anywhere"), 404, "not-found");
    }

    @Test
    void aReviewDecisionIsSignedByTheKeyThatMadeIt_notByANameInTheBody() {
        Client reviewer = client("kb-reviewer", "knowledge:write", "knowledge:read");
        long candidate = jdbc.sql("INSERT INTO faq_candidate (question, occurrences) VALUES (?, 3) RETURNING id")
            .param("签收后发现少件怎么办-" + RUN).query(Long.class).single();

        HttpResponse<String> rejected = reviewer.http().postJson("/api/v1/faq/candidates/" + candidate + "/reject",
            "{\"reviewer\":\"the-ceo\"}");
        assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(200);

        String signed = jdbc.sql("SELECT reviewed_by FROM faq_candidate WHERE id = ?").param(candidate)
            .query(String.class).single();
        assertThat(signed).contains("client " + reviewer.id()).doesNotContain("the-ceo");
    }
}
