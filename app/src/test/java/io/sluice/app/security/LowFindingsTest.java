package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.sluice.app.support.ConsoleSession;
import io.sluice.app.support.Http;
import io.sluice.console.users.ConsoleRole;
import io.sluice.console.users.ConsoleUsers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import tools.jackson.databind.JsonNode;

/** The probe's low-severity findings, one test each. */
@ExtendWith(OutputCaptureExtension.class)
class LowFindingsTest extends SecuritySuite {

    static final String PASSWORD = "correct-horse-battery";

    @Autowired
    ConsoleUsers users;

    @Test
    void unknownPathsMethodsTypesAndAcceptsAreProblemJsonAndOpenAiShapedUnderV1() {
        Client c = client("errors", "chat", "openai");
        assertProblem(operator().get("/api/v1/no-such-thing"), 404, "not-found");
        assertProblem(c.http().get("/api/v1/chat"), 405, "unsupported-request");
        assertProblem(c.http().send("POST", "/api/v1/chat", "hello", "Content-Type", "text/plain"), 415, "unsupported-request");
        HttpResponse<String> notAcceptable = c.http().send("POST", "/api/v1/chat", chat("u", "hi"),
            "Content-Type", "application/json", "Accept", "application/xml");
        assertProblem(notAcceptable, 406, "unsupported-request");
        assertThat(json(notAcceptable).get("detail").asString()).isNotBlank();

        for (HttpResponse<String> openai : new HttpResponse[] {c.http().get("/v1/no-such-thing"),
                c.http().get("/v1/chat/completions")}) {
            assertThat(openai.statusCode()).isIn(404, 405);
            JsonNode error = json(openai).get("error");
            assertThat(error.get("message").asString()).isNotBlank();
            assertThat(error.get("type").asString()).isEqualTo("invalid_request_error");
        }
    }

    @Test
    void oversizedHeadersAreProblemJsonNotTomcatHtml() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/v1/sessions/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "a".repeat(20_000)
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            socket.setSoTimeout(10_000);
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 4");
            assertThat(response).contains("application/problem+json").contains("headers-too-large").doesNotContain("<html");
        }
    }

    @Test
    void nulCharactersAreRefusedWith400EverywhereAndNothingIsStored() {
        Client c = client("nul", "chat", "tasks", "knowledge:write");
        long messages = count("SELECT count(*) FROM conversation_message");
        assertProblem(c.http().postJson("/api/v1/chat", "{\"userId\":\"u\",\"message\":\"退款\\u0000多久\"}"), 400,
            "invalid-request");
        assertThat(count("SELECT count(*) FROM conversation_message")).isEqualTo(messages);
        assertProblem(c.http().postJson("/api/v1/tasks",
            "{\"type\":\"deferred_answer\",\"payload\":{\"question\":\"a\\u0000b\"}}"), 400, "invalid-request");
        assertProblem(c.http().postJson("/api/v1/knowledge/faq",
            "{\"key\":\"nul-" + RUN + "\",\"question\":\"q\\u0000\",\"answer\":\"a\"}"), 400, "invalid-request");
        assertProblem(c.http().postJson("/api/v1/knowledge/documents",
            "{\"externalId\":\"nul-" + RUN + "\",\"content\":\"text\\u0000\"}"), 400, "invalid-request");
        assertProblem(c.http().get("/api/v1/sessions?userId=a%00b"), 400, "invalid-request");
    }

    @Test
    void embeddedNewlinesCannotForgeLogLines(CapturedOutput output) {
        // the answer below comes from the FAQ tier at L0, whose exchange line is DEBUG (RecordStep.quiet): every
        // exchange line is shown for this test, so what an operator who turns them on would read is what is checked
        LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
        logging.setLogLevel("sluice.chat", LogLevel.DEBUG);
        try {
            forgedLinesAreEscaped(output);
        } finally {
            logging.setLogLevel("sluice.chat", null);
        }
    }

    private void forgedLinesAreEscaped(CapturedOutput output) {
        Client c = client("forger", "chat");
        assertProblem(c.http().postJson("/api/v1/chat", chat("u\nINFO forged", "hi")), 400, "invalid-request");
        // no digits: a random UUID sometimes holds a run of digits the log's personal-number masking hides
        String marker = "FORGED-" + UUID.randomUUID().toString().replaceAll("[0-9]", "x");
        HttpResponse<String> answered = c.http().postJson("/api/v1/chat",
            chat("u1", "退款多久\n2026-01-01 INFO " + marker + " admin logged in"));
        assertThat(answered.statusCode()).isEqualTo(200);
        assertThat(output.getOut()).contains(marker);
        assertThat(output.getOut().lines().filter(line -> line.startsWith("2026-01-01 INFO " + marker))).isEmpty();
    }

    @Test
    void personalNumbersAreMaskedInTaskPayloadsAndUserIds() {
        Client c = client("pii", "chat", "tasks");
        HttpResponse<String> task = c.http().postJson("/api/v1/tasks",
            "{\"type\":\"deferred_answer\",\"payload\":{\"question\":\"我的手机 13812345678 收不到验证码\"}}");
        assertThat(task.statusCode()).isEqualTo(202);
        String stored = jdbc.sql("SELECT payload::text FROM work_item WHERE ticket = ?::uuid")
            .param(json(task).get("id").asString()).query(String.class).single();
        assertThat(stored).doesNotContain("13812345678").contains("138****5678");

        HttpResponse<String> chat = c.http().postJson("/api/v1/chat", chat("13987654321", "怎么查物流"));
        assertThat(chat.statusCode()).isEqualTo(200);
        String user = jdbc.sql("SELECT user_id FROM conversation WHERE id = ?::uuid")
            .param(json(chat).get("sessionId").asString()).query(String.class).single();
        assertThat(user).isEqualTo("139****4321");
        assertThat(json(c.http().get("/api/v1/sessions?userId=13987654321"))).hasSize(1);
    }

    @Test
    void problemDetailsNeverEchoTheInput() {
        Client c = client("echo", "tasks");
        String payload = "<script>alert(1)</script>";
        HttpResponse<String> unknown = c.http().postJson("/api/v1/tasks",
            "{\"type\":\"" + payload + "\",\"payload\":{}}");
        assertProblem(unknown, 400, "unknown-task-type");
        assertThat(unknown.body()).doesNotContain("script");
        HttpResponse<String> job = operator().postJson("/api/v1/jobs/" + "x-" + payload.replaceAll("[^a-z]", "") + "/executions", "{}");
        assertThat(job.body()).doesNotContain("xscriptalertscript");
    }

    @Test
    void randomKeysFromOneAddressAreRefusedBeforeAnyLookupAndValidKeysStillWork() throws Exception {
        java.net.InetAddress prober = java.net.InetAddress.getByName("127.0.0.5");
        Client c = client("valid", "chat");
        assertThat(c.http().postJson("/api/v1/chat", chat("u", "你好")).statusCode()).isEqualTo(200);
        boolean refusedEarly = false;
        for (int i = 0; i < 40 && !refusedEarly; i++) {
            HttpResponse<String> r = new Http(port, "sk-sluice-random-" + UUID.randomUUID(), prober).get("/api/v1/sessions/x");
            refusedEarly = r.statusCode() == 429;
            if (!refusedEarly) {
                assertThat(r.statusCode()).isEqualTo(401);
            }
        }
        assertThat(refusedEarly).as("the address ran out of bad-key attempts").isTrue();
        assertThat(c.http().postJson("/api/v1/chat", chat("u", "你好")).statusCode())
            .as("a key seen recently needs no lookup and still works").isEqualTo(200);
    }

    @Test
    void aRevokedClientsTierAndScopesCannotChange() {
        Client c = client("to-revoke", "chat");
        assertThat(operator().postJson("/api/v1/clients/" + c.id() + "/revoke", "").statusCode()).isEqualTo(200);
        assertProblem(operator().send("PUT", "/api/v1/clients/" + c.id() + "/tier", "{\"tier\":\"VIP\"}",
            "Content-Type", "application/json"), 409, "client-state-conflict");
        assertThat(jdbc.sql("SELECT tier FROM api_client WHERE id = ?").param(c.id()).query(String.class).single())
            .isEqualTo("STANDARD");
    }

    @Test
    void consoleRoleOfAnUnknownUserPasswordChangeAndSessionCookie() {
        String admin = "sec-admin-" + RUN.substring(RUN.length() - 6);
        users.create(admin, PASSWORD, ConsoleRole.ADMIN, false);
        ConsoleSession session = new ConsoleSession(port);
        HttpResponse<String> login = session.tryLogIn(admin, PASSWORD);
        assertThat(login.headers().allValues("Set-Cookie")).anySatisfy(cookie ->
            assertThat(cookie).contains("JSESSIONID").containsIgnoringCase("SameSite=Lax").containsIgnoringCase("HttpOnly"));

        String token = session.csrfTokenOf("/console/users");
        HttpResponse<String> role = session.postForm("/console/users/nosuchuser/role", Map.of("role", "ADMIN", "_csrf", token));
        assertThat(role.statusCode()).isEqualTo(302);

        String passwordToken = session.csrfTokenOf("/console/account/password");
        HttpResponse<String> noCurrent = session.postForm("/console/account/password", Map.of("password",
            "a-brand-new-password", "confirmation", "a-brand-new-password", "_csrf", passwordToken));
        assertThat(noCurrent.statusCode()).isEqualTo(200);
        assertThat(noCurrent.body()).contains("current password");
        assertThat(users.passwordMatches(admin, PASSWORD)).isTrue();
        HttpResponse<String> withCurrent = session.postForm("/console/account/password", Map.of("current", PASSWORD,
            "password", "a-brand-new-password", "confirmation", "a-brand-new-password",
            "_csrf", session.csrfTokenOf("/console/account/password")));
        assertThat(withCurrent.statusCode()).isEqualTo(302);
        assertThat(users.passwordMatches(admin, "a-brand-new-password")).isTrue();
    }

    @Test
    void healthDetailsAndMetricsAreNotOnThePublicPort() {
        assertThat(new Http(port).get("/actuator/health").statusCode()).isNotEqualTo(200);
        assertThat(new Http(port).get("/actuator/prometheus").statusCode()).isNotEqualTo(200);
        HttpResponse<String> health = new Http(managementPort).get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).doesNotContain("\"details\"");
        assertThat(new Http(managementPort).get("/actuator/prometheus").statusCode()).isEqualTo(200);
    }

    @Test
    void apiAnswersAndRefusalsCarryTheSecurityHeadersAndNeverASession() {
        Client c = client("headers", "chat");
        HttpResponse<String> answer = c.http().postJson("/api/v1/chat", chat("header-user", "退货的运费谁来出？"));
        HttpResponse<String> noKey = new Http(port).get("/api/v1/sessions/x");
        HttpResponse<String> noKeyOpenAi = new Http(port).get("/v1/models");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(noKey.statusCode()).isEqualTo(401);
        assertThat(noKeyOpenAi.statusCode()).isEqualTo(401);
        for (HttpResponse<String> response : List.of(answer, noKey, noKeyOpenAi)) {
            assertThat(response.headers().firstValue("X-Content-Type-Options")).as(response.uri().toString()).hasValue("nosniff");
            assertThat(response.headers().firstValue("X-Frame-Options")).hasValue("DENY");
            assertThat(response.headers().firstValue("Cache-Control")).hasValueSatisfying(v -> assertThat(v).contains("no-store"));
            assertThat(response.headers().allValues("Set-Cookie")).isEmpty();
        }
    }

    private long count(String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }
}
