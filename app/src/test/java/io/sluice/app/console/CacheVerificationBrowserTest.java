package io.sluice.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ApiScope;
import io.sluice.api.auth.ClientTier;
import io.sluice.app.support.Browser;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.console.users.ConsoleRole;
import io.sluice.console.users.ConsoleUsers;
import io.sluice.semantics.pairs.CacheVerification;
import io.sluice.semantics.pairs.HitReviews;
import io.sluice.semantics.pairs.LabelledPair;
import io.sluice.semantics.pairs.PairStore;

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

/**
 * Console › Cache: an operator labels a served hit wrong (it becomes a training pair), an admin trains a
 * pair-verifier version, sees its held-out precision/recall curve with the chosen point per level, and
 * activates it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class CacheVerificationBrowserTest {

    static final String PASSWORD = "correct-horse-battery";
    static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    static ChromeDriver browser;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, "cache-verification-" + RUN);
        registry.add("sluice.semantics.pairs.review-sample-rate", () -> "0");
    }

    // one Chromium for the class's tests, quit after the last
    @RegisterExtension
    static final Browser.PerClass chromium = new Browser.PerClass(started -> browser = started);

    @LocalServerPort
    int port;

    @Autowired
    ConsoleUsers users;

    @Autowired
    PairStore pairs;

    @Autowired
    HitReviews reviews;

    @Autowired
    CacheVerification verification;

    @Autowired
    ApiKeys apiKeys;

    /** The database is shared with other test classes: the built-in default answers again afterwards. */
    @AfterEach
    void backToTheBuiltInDefault() {
        for (int i = 0; i < 20 && verification.rollback("test", "cleanup").isPresent(); i++) {
            // each rollback puts the version before back, until the built-in default answers
        }
    }

    @Test
    void aReviewedHitBecomesAPairAndATrainedVersionIsShownWithItsCurveAndActivated() throws Exception {
        pairs.importAll(samplePairs(), true, "browser-" + RUN, "test");
        String stored = "信用卡年费怎么收 " + RUN;
        reviews.record("信用卡年费能免吗 " + RUN, stored, 0.93, null, "L0", 0, null);
        long reviewedBefore = pairs.summary().fromReview();
        String admin = "cache-admin-" + RUN;
        users.create(admin, PASSWORD, ConsoleRole.ADMIN, false);

        logIn(admin);
        browser.get(url("/console/cache"));
        Object unlabelled = browser.executeScript("""
            return Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))
              .filter(el => el.labels.length === 0 && !el.getAttribute('aria-label')).map(el => el.name || el.id);""");
        assertThat((List<?>) unlabelled).as("unlabelled fields").isEmpty();
        var row = browser.findElements(By.cssSelector("#review-queue tbody tr")).stream()
            .filter(r -> r.getText().contains(stored)).findFirst().orElseThrow();
        row.findElement(By.cssSelector("button[value=wrong]")).click();
        assertThat(browser.findElement(By.className("notice")).getText()).contains("labelled wrong");
        assertThat(pairs.summary().fromReview()).isEqualTo(reviewedBefore + 1);

        browser.findElement(By.id("train")).click();
        await().atMost(Duration.ofSeconds(120)).until(() -> !browser.findElements(By.id("points")).isEmpty());
        assertThat(browser.findElement(By.className("notice")).getText()).contains("Trained v");
        assertThat(browser.findElement(By.id("point-L0")).getText()).contains("0.95");
        await().atMost(Duration.ofSeconds(10)).until(() ->
            browser.findElement(By.id("pr-curve")).getAttribute("class").contains("drawn"));
        assertThat(browser.findElements(By.cssSelector("#pr-curve canvas"))).isNotEmpty();
        Browser.screenshot(browser, "console-cache-verification");

        long version = verification.versions(1).get(0).version();
        // a few hundred pairs may leave L0 without a point meeting its target: activate with force
        var activate = browser.findElement(By.id("activate-" + version));
        activate.findElement(By.xpath("following-sibling::label/input[@name='force']")).click();
        activate.click();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() ->
            browser.findElement(By.id("active-version")).getText().equals("pair-verifier v" + version));
        assertThat(verification.active().version()).isEqualTo(version);
    }

    @Test
    void pairsAreImportedThroughTheApiAllOrNothingAndAReaderKeyCannotWrite() {
        Http admin = new Http(port, apiKeys.create("pairs-admin-" + RUN, ClientTier.STANDARD,
            EnumSet.of(ApiScope.ADMIN)).key());
        Http reader = new Http(port, apiKeys.create("pairs-reader-" + RUN, ClientTier.STANDARD,
            EnumSet.of(ApiScope.KNOWLEDGE_READ)).key());
        long before = pairs.summary().pairs();

        var bad = admin.send("POST", "/api/v1/semantics/pairs?format=csv",
            "a,b,same\n退款多久到账 " + RUN + ",退款几天能到 " + RUN + ",yes\n运费谁出 " + RUN + ",,no\n", "Content-Type", "text/csv");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("invalid-request", "pair 2", "'b'").doesNotContain("运费谁出");
        assertThat(pairs.summary().pairs()).as("nothing of a refused file is stored").isEqualTo(before);

        var good = admin.send("POST", "/api/v1/semantics/pairs",
            "{\"a\":\"退款多久到账 " + RUN + "\",\"b\":\"退款几天能到 " + RUN + "\",\"same\":\"yes\"}\n"
                + "{\"a\":\"运费谁出 " + RUN + "\",\"b\":\"退款谁出 " + RUN + "\",\"same\":false,\"intent\":\"returns\"}\n",
            "Content-Type", "application/x-ndjson");
        assertThat(good.statusCode()).isEqualTo(201);
        assertThat(good.body()).contains("\"imported\":2");
        assertThat(pairs.summary().pairs()).isEqualTo(before + 2);

        assertThat(reader.get("/api/v1/semantics/pairs").statusCode()).isEqualTo(200);
        assertThat(reader.get("/api/v1/semantics/pairs/models").statusCode()).isEqualTo(200);
        assertThat(reader.send("POST", "/api/v1/semantics/pairs?format=jsonl", "{}", "Content-Type", "application/x-ndjson")
            .statusCode()).isEqualTo(403);
        var evaluation = admin.send("POST", "/api/v1/semantics/pairs/evaluations?format=jsonl",
            "{\"a\":\"设定闹钟五点半\",\"b\":\"设定闹钟六点半\",\"same\":\"no\"}\n"
                + "{\"a\":\"退款多久到账\",\"b\":\"退款多久到账呢\",\"same\":\"yes\"}\n", "Content-Type", "application/x-ndjson");
        assertThat(evaluation.statusCode()).isEqualTo(201);
        assertThat(evaluation.body()).contains("\"kind\":\"cache-pairs\"", "\"precision-l0\":1.0");
        assertThat(reader.get("/api/v1/semantics/pairs/evaluations/latest").body()).contains("cache-pairs");
    }

    static List<LabelledPair> samplePairs() throws Exception {
        var in = Objects.requireNonNull(CacheVerificationBrowserTest.class
            .getResourceAsStream("/sluice/sample/cache-pairs-paraphrase-train.tsv"));
        List<LabelledPair> out = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("#") || line.startsWith("label\t") || line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t");
                out.add(LabelledPair.of(f[3], f[4], "same".equals(f[0])));
            }
        }
        return out;
    }

    private void logIn(String username) {
        Browser.logIn(browser, port, username, PASSWORD);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
