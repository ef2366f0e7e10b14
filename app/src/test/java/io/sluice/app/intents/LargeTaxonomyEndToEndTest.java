package io.sluice.app.intents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
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
 * A taxonomy of the size of a fine-grained real set (77 intents over S/A/B, generated from the team's own
 * templates: {@link SyntheticBankingTaxonomy}) through the operator's API: the intents as JSONL (class per
 * intent, an extra field), 3,080 examples as CSV (byte order mark, CRLF, quoted, class on every row, an
 * extra column); train — a second request while it runs gets 409 problem+json and the running training
 * is visible with its phase; evaluate separately generated held-out messages through the chat's
 * decision; the console lists the taxonomy by pages with a filter.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LargeTaxonomyEndToEndTest {

    static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    static final String PASSWORD = "correct-horse-battery";
    static ChromeDriver browser;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, "intents77-" + RUN);
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
    void seventySevenIntentsImportTrainEvaluateAndPageInTheConsole() {
        Http admin = new Http(port, apiKeys.create("intents77-admin-" + RUN, ClientTier.STANDARD,
            EnumSet.of(ApiScope.ADMIN)).key());
        taxonomy.definitions().forEach(i -> taxonomy.delete(i.key()));

        JsonNode defined = ok(admin.send("POST", "/api/v1/intents/import", SyntheticBankingTaxonomy.definitionsJsonl(),
            "Content-Type", "application/x-ndjson"));
        assertThat(defined.get("intentsCreated").asInt()).isEqualTo(77);
        List<SyntheticBankingTaxonomy.Message> training = SyntheticBankingTaxonomy.training(40);
        assertThat(training).hasSize(77 * 40);
        JsonNode imported = ok(admin.send("POST", "/api/v1/intents/import", SyntheticBankingTaxonomy.examplesCsv(training),
            "Content-Type", "text/csv"));
        assertThat(imported.get("examples").asInt()).as(imported.toString()).isEqualTo(77 * 40);
        assertThat(taxonomy.exampleCounts()).hasSize(77).allSatisfy((k, n) -> assertThat(n).isEqualTo(40));

        HttpResponse<String> started = admin.postJson("/api/v1/intents/models", "{\"activate\":true}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String status = started.headers().firstValue("Location").orElseThrow();
        // one training in the cluster at a time: the second request is refused while the first runs
        HttpResponse<String> second = admin.postJson("/api/v1/intents/models", "{\"activate\":true}");
        JsonNode current = ok(admin.get("/api/v1/intents/models/trainings")).get("current");
        JsonNode done = await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofSeconds(1))
            .until(() -> ok(admin.get(status)), t -> !"running".equals(t.get("status").asText()));
        if (!"running".equals(current.get("status").asText())) {
            // the training was over before the second request (a fast machine): then it was accepted
            assertThat(second.statusCode()).isIn(202, 409);
        } else {
            assertThat(second.statusCode()).as(second.body()).isEqualTo(409);
            assertThat(second.headers().firstValue("Content-Type").orElse("")).contains("application/problem+json");
            assertThat(json.readTree(second.body()).get("type").asText()).endsWith("/intent-training-running");
            assertThat(current.get("phase").asText()).isNotBlank();
        }
        assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("done");
        assertThat(done.get("examples").asInt()).isEqualTo(77 * 40);
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofSeconds(1))
            .until(() -> !"running".equals(ok(admin.get("/api/v1/intents/models/trainings")).get("current")
                .get("status").asText()));
        long version = done.get("version").asLong();
        JsonNode evaluation = ok(admin.get("/api/v1/intents/models/" + version)).get("evaluation");
        System.out.println("77-intent training: " + evaluation.get("trainingExamples") + " examples, "
            + evaluation.get("trainingMillis") + " ms (embedding " + evaluation.get("embeddingMillis") + " ms), "
            + "held-out split " + evaluation.get("metrics"));
        assertThat(evaluation.get("perIntent").size()).isEqualTo(77);

        List<SyntheticBankingTaxonomy.Message> heldOut = SyntheticBankingTaxonomy.heldOut(8);
        HttpResponse<String> evaluated = admin.send("POST", "/api/v1/intents/evaluations",
            SyntheticBankingTaxonomy.evaluationCsv(heldOut), "Content-Type", "text/csv");
        assertThat(evaluated.statusCode()).as(evaluated.body()).isEqualTo(201);
        JsonNode report = json.readTree(evaluated.body());
        System.out.println("77-intent evaluation (" + heldOut.size() + " held-out messages): " + report.get("metrics"));
        assertThat(report.get("items").asInt()).isEqualTo(heldOut.size());
        assertThat(report.get("modelVersion").asLong()).isEqualTo(version);
        assertThat(report.get("metrics").get("priority-accuracy").asDouble()).isGreaterThanOrEqualTo(0.90);
        assertThat(report.get("metrics").get("s-to-b-rate").asDouble()).isLessThanOrEqualTo(0.03);
        assertThat(report.get("metrics").get("intent-accuracy").asDouble()).isGreaterThanOrEqualTo(0.80);

        // the console: a summary, 25 intents a page, a filter
        String operator = "intents77-" + RUN;
        users.create(operator, PASSWORD, ConsoleRole.OPERATOR, false);
        Browser.logIn(browser, port, operator, PASSWORD);
        browser.get(url("/console/intents"));
        assertThat(browser.findElement(By.id("taxonomy-summary")).getText()).contains("77 intents", "3080 examples");
        assertThat(browser.findElements(By.cssSelector("#intents tbody tr"))).hasSize(25);
        assertThat(browser.findElement(By.id("intents-page")).getText()).contains("page 1 of 4");
        assertThat(browser.findElement(By.id("training-status")).getText()).contains("v" + version);
        browser.findElement(By.id("intents-next")).click();
        await().atMost(Duration.ofSeconds(10)).until(() -> browser.findElement(By.id("intents-page")).getText()
            .contains("page 2 of 4"));
        browser.get(url("/console/intents?class=S"));
        assertThat(browser.findElements(By.cssSelector("#intents tbody tr"))).hasSize(11);
        browser.get(url("/console/intents?q=atm"));
        assertThat(browser.findElement(By.id("intents")).getText()).contains("atm_no_cash", "atm_wrong_amount")
            .doesNotContain("balance_check");
        Browser.screenshot(browser, "intents-77");
    }

    JsonNode ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isBetween(200, 202);
        return json.readTree(response.body());
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
