package io.sluice.app.intents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.UUID;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ApiScope;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.intent.IntentProperties;
import io.sluice.app.support.Browser;
import io.sluice.app.support.Http;
import io.sluice.app.support.SampleIntents;
import io.sluice.app.support.TestServices;
import io.sluice.console.users.ConsoleRole;
import io.sluice.console.users.ConsoleUsers;
import io.sluice.semantics.intent.IntentTaxonomy;
import io.sluice.semantics.model.SemanticModels;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The operator's path through the API, in the whole application (real PostgreSQL, Redis, ONNX models):
 * replace the sample taxonomy by the team's retail-banking one (CSV import, text,intent,priority),
 * train, get it activated because it beats the rules on its held-out split, evaluate 332 held-out
 * messages written separately through the chat's own decision, roll back; a bad file is refused with
 * its line and changes nothing; the console page shows the model's evaluation. The taxonomy and the
 * model kind are shared by the test database, so the sample and "no model" are put back afterwards.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class IntentsEndToEndTest {

    static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    static final Path DATA = Path.of("../platform-api/src/test/resources/intents");
    static final String PASSWORD = "correct-horse-battery";
    static ChromeDriver browser;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, "intents-" + RUN);
        registry.add("sluice.batch.jobs.work-queue-drain.enabled", () -> "false");
        registry.add("sluice.chat.cache.enabled", () -> "false");
    }

    // one Chromium for the class's tests, quit after the last
    @RegisterExtension
    static final Browser.PerClass chromium = new Browser.PerClass(started -> browser = started);

    @LocalServerPort
    int port;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    IntentTaxonomy taxonomy;

    @Autowired
    SemanticModels models;

    @Autowired
    IntentProperties intentProperties;

    @Autowired
    ConsoleUsers users;

    final ObjectMapper json = new ObjectMapper();

    @AfterEach
    void putBackTheSampleAndNoModel() {
        SampleIntents.putBack(models, taxonomy, intentProperties);
    }

    @Test
    void anOperatorImportsTrainsActivatesEvaluatesAndRollsBackThroughTheApi() throws IOException {
        Http admin = new Http(port, apiKeys.create("intents-admin-" + RUN, ClientTier.STANDARD,
            EnumSet.of(ApiScope.ADMIN)).key());
        Http reader = new Http(port, apiKeys.create("intents-reader-" + RUN, ClientTier.STANDARD,
            EnumSet.of(ApiScope.KNOWLEDGE_READ)).key());

        JsonNode sample = ok(reader.get("/api/v1/intents"));
        assertThat(sample.findValuesAsString("key")).contains("complaint", "urgent", "payment");
        assertThat(reader.send("DELETE", "/api/v1/intents/complaint", null).statusCode()).isEqualTo(403);

        // a bad file: refused with its line, nothing imported
        HttpResponse<String> bad = admin.send("POST", "/api/v1/intents/import",
            "text,intent,priority\n我的卡丢了,card_lost_stolen,S\n余额多少,balance_inquiry,X\n", "Content-Type", "text/csv");
        assertThat(bad.statusCode()).isEqualTo(400);
        JsonNode problem = json.readTree(bad.body());
        assertThat(problem.get("type").asText()).endsWith("/invalid-intent-import");
        assertThat(problem.get("line").asInt()).isEqualTo(3);
        assertThat(problem.get("detail").asText()).doesNotContain("余额多少");
        assertThat(ok(reader.get("/api/v1/intents")).findValuesAsString("key")).doesNotContain("card_lost_stolen");

        // the banking taxonomy replaces the sample
        for (String key : sample.findValuesAsString("key")) {
            assertThat(admin.send("DELETE", "/api/v1/intents/" + key, null).statusCode()).isEqualTo(204);
        }
        JsonNode imported = ok(admin.send("POST", "/api/v1/intents/import",
            Files.readString(DATA.resolve("banking-training.csv")), "Content-Type", "text/csv"));
        assertThat(imported.get("intentsCreated").asInt()).isEqualTo(13);
        assertThat(imported.get("examples").asInt()).isEqualTo(390);

        // train: the model beats the rules on its held-out split, so it is activated
        HttpResponse<String> started = admin.postJson("/api/v1/intents/models", "{\"activate\":true}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String status = started.headers().firstValue("Location").orElseThrow();
        JsonNode done = await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1))
            .until(() -> ok(reader.get(status)), t -> !"running".equals(t.get("status").asText()));
        assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("done");
        assertThat(done.get("activated").asBoolean()).isTrue();
        long version = done.get("version").asLong();
        JsonNode stored = ok(reader.get("/api/v1/intents/models/" + version));
        assertThat(stored.get("current").asBoolean()).isTrue();
        JsonNode evaluation = stored.get("evaluation");
        assertThat(evaluation.get("confusion")).hasSize(3);
        assertThat(evaluation.get("perIntent").has("card_lost_stolen")).isTrue();
        assertThat(evaluation.get("metrics").get("priority-accuracy").asDouble())
            .isGreaterThan(evaluation.get("answeringNow").get("metrics").get("priority-accuracy").asDouble());

        // the chat decides with it
        JsonNode chat = ok(new Http(port, apiKeys.create("intents-chat-" + RUN, ClientTier.STANDARD).key())
            .postJson("/api/v1/chat", "{\"userId\":\"u-" + RUN + "\",\"message\":\"我的銀行卡丟了，快幫我凍結\"}"));
        assertThat(chat.get("intent").asText()).isEqualTo("card_lost_stolen");
        assertThat(chat.get("priority").asText()).isEqualTo("S");

        // 332 held-out messages, written separately, through the chat's decision
        HttpResponse<String> evaluated = admin.send("POST", "/api/v1/intents/evaluations",
            Files.readString(DATA.resolve("banking-heldout.csv")), "Content-Type", "text/csv");
        assertThat(evaluated.statusCode()).as(evaluated.body()).isEqualTo(201);
        JsonNode report = json.readTree(evaluated.body());
        System.out.println("intent evaluation through the API (held out): " + report.get("metrics"));
        assertThat(report.get("items").asInt()).isEqualTo(332);
        assertThat(report.get("modelVersion").asLong()).isEqualTo(version);
        assertThat(report.get("metrics").get("priority-accuracy").asDouble()).isGreaterThanOrEqualTo(0.90);
        assertThat(report.get("metrics").get("s-to-b-rate").asDouble()).isLessThanOrEqualTo(0.03);
        assertThat(ok(reader.get("/api/v1/intents/evaluations/latest")).get("items").asInt()).isEqualTo(332);

        // the console shows the evaluation
        String operator = "intents-" + RUN;
        users.create(operator, PASSWORD, ConsoleRole.OPERATOR, false);
        Browser.logIn(browser, port, operator, PASSWORD);
        browser.get(url("/console/intents"));
        assertThat(browser.findElement(By.id("intent-models")).getText()).contains("v" + version, "active");
        assertThat(browser.findElements(By.cssSelector("#confusion tbody tr"))).hasSize(3);
        assertThat(browser.findElement(By.id("eval-s-to-b")).getText()).isNotBlank();
        assertThat(browser.findElement(By.id("intents")).getText()).contains("card_lost_stolen", "atm_cash_issue");
        Browser.screenshot(browser, "intents");

        // roll back: no model, the rules decide again
        JsonNode back = ok(admin.postJson("/api/v1/intents/models/rollback", "{}"));
        assertThat(back.get("active").isNull()).isTrue();
        assertThat(ok(reader.get("/api/v1/intents/models/" + version)).get("current").asBoolean()).isFalse();
    }

    JsonNode ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
        return json.readTree(response.body());
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
