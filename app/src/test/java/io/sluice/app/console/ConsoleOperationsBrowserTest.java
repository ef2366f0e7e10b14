package io.sluice.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.app.support.Browser;
import io.sluice.app.support.ConsoleSession;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.batch.queue.NewWorkItem;
import io.sluice.batch.queue.WorkQueue;
import io.sluice.batch.queue.WorkState;
import io.sluice.console.audit.AuditLog;
import io.sluice.console.users.ConsoleRole;
import io.sluice.console.users.ConsoleUsers;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitLease;
import io.sluice.governance.sentinel.LaneRules;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.derived.MeasuredLatency;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The console's operating pages (governance, API clients, knowledge, jobs, work queue) in real headless
 * Chromium, against the real application and services; only the LLM provider is the mock.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsoleOperationsBrowserTest {

    static final String PASSWORD = "correct-horse-battery";
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final MockProvider PROVIDER = MockProvider.start(0);
    static ChromeDriver browser;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, UUID.randomUUID().toString());
        registry.add("sluice.llm.base-url", PROVIDER::baseUrl);
        // jobs run when the test launches them, not on the every-minute schedule
        registry.add("sluice.batch.jobs.work-queue-drain.enabled", () -> "false");
        // the level moves only when pinned here: a slow first LLM call on a loaded machine must not move it
        registry.add("sluice.degradation.auto", () -> "false");
    }

    @BeforeAll
    static void startBrowser() {
        browser = Browser.start();
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        PROVIDER.close();
    }

    @LocalServerPort
    int port;

    @Autowired ConsoleUsers users;
    @Autowired AuditLog audit;
    @Autowired ApiKeys apiKeys;
    @Autowired DegradationControl degradation;
    @Autowired ClusterPermits permits;
    @Autowired GatewayAssembly gateway;
    @Autowired IngestionService ingestion;
    @Autowired WorkQueue workQueue;
    @Autowired JdbcClient jdbc;
    @Autowired MeterRegistry meters;
    @Autowired io.sluice.governance.gateway.GatewayProperties gatewayProperties;
    @Autowired org.redisson.api.RedissonClient redisson;

    String operator;
    String viewer;

    @BeforeEach
    void users() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        operator = "ops-" + suffix;
        viewer = "viewer-" + suffix;
        users.create(operator, PASSWORD, ConsoleRole.ADMIN, false);
        users.create(viewer, PASSWORD, ConsoleRole.VIEWER, false);
        browser.manage().deleteAllCookies();
        PROVIDER.scenario(Scenario.healthy().withFixedLatency(20));
    }

    @Test
    void pinningTheLevelCapsTheTierAChatCallIsAnsweredAt() {
        Http api = new Http(port, apiKeys.create("console-pin-" + operator, ClientTier.STANDARD).key());
        // unpinned, the mock answers at an LLM tier (the first LLM call of the JVM may be slow, so allow a few)
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
            assertThat(chat(api, "pin-before-" + UUID.randomUUID()).get("tier").asString()).isIn("F4", "F3", "F2"));
        try {
            logIn(operator);
            browser.get(url("/console/governance"));
            new Select(browser.findElement(By.id("pin-level"))).selectByValue("L3");
            browser.findElement(By.id("pin-reason")).sendKeys("provider incident drill");
            browser.findElement(By.id("pin-button")).click();

            // the governance page is shown before and after the post: wait for the new one (the old element goes stale)
            await().atMost(Duration.ofSeconds(15)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.id("level-effective")).getText()).isEqualTo("L3"));
            assertThat(browser.findElement(By.id("level-reason")).getText()).contains("pinned by " + operator)
                .contains("provider incident drill");
            Browser.screenshot(browser, "console-governance-pinned");

            // a question not cached yet: degraded levels also read the L0 answers' cache space, so the question asked
            // above would come back from the cache at its F4
            JsonNode pinned = chat(api, "pin-after-" + operator, "电子发票可以重开吗");
            assertThat(pinned.get("tier").asString()).isEqualTo("F1");
            assertThat(pinned.get("degradationLevel").asString()).isEqualTo("L3");
            assertThat(audit.latest(50)).anySatisfy(entry -> {
                assertThat(entry.actor()).isEqualTo(operator);
                assertThat(entry.action()).isEqualTo("degradation.pin");
                assertThat(entry.after()).contains("L3");
            });

            browser.findElement(By.id("unpin-button")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.id("level-pinned")).getText()).isEqualTo("no"));
            assertThat(degradation.state().pinned()).isNull();
        } finally {
            degradation.unpin("test-cleanup");
        }
    }

    @Test
    void changingTheInteractivePermitCountTakesEffectClusterWide() {
        List<PermitLease> held = new ArrayList<>();
        try {
            logIn(operator);
            browser.get(url("/console/governance"));
            WebElement field = browser.findElement(By.id("permits-interactive"));
            field.clear();
            field.sendKeys("3");
            browser.findElement(By.id("permits-interactive-set")).click();

            assertThat(browser.findElement(By.className("notice")).getText()).contains("3 permits");
            assertThat(browser.findElement(By.id("permits-interactive-size")).getText()).endsWith("/ 3");
            for (int i = 0; i < 3; i++) {
                Optional<PermitLease> lease = permits.tryAcquire("interactive", Duration.ofSeconds(2));
                assertThat(lease).as("permit %d of 3", i + 1).isPresent();
                held.add(lease.get());
            }
            assertThat(permits.tryAcquire("interactive", Duration.ofMillis(200))).as("a fourth permit").isEmpty();
            browser.navigate().refresh();
            assertThat(browser.findElement(By.id("permits-interactive-size")).getText()).isEqualTo("3 / 3");
            Browser.screenshot(browser, "console-governance-permits");
            assertThat(audit.latest(50)).anySatisfy(entry -> {
                assertThat(entry.action()).isEqualTo("permits.resize");
                assertThat(entry.actor()).isEqualTo(operator);
                assertThat(entry.after()).isEqualTo("permits=3");
            });
        } finally {
            held.forEach(PermitLease::close);
            permits.resize("interactive", 8);
        }
    }

    @Test
    void anInvalidRuleValueShowsAnInlineErrorAndChangesNothing() {
        LaneRules before = gateway.sentinelRules().current().get(Lane.INTERACTIVE);
        logIn(operator);
        browser.get(url("/console/governance"));
        WebElement errorRatio = browser.findElement(By.id("rules-interactive-errorRatio"));
        errorRatio.clear();
        errorRatio.sendKeys("1.5");
        browser.findElement(By.id("rules-interactive-save")).click();

        assertThat(browser.findElement(By.id("rules-interactive-error")).getText()).contains("[0, 1]");
        assertThat(browser.findElement(By.id("rules-interactive-errorRatio")).getAttribute("value")).isEqualTo("1.5");
        Browser.screenshot(browser, "console-governance-invalid-rule");
        assertThat(gateway.sentinelRules().current().get(Lane.INTERACTIVE)).isEqualTo(before);

        WebElement permitsField = browser.findElement(By.id("permits-interactive"));
        permitsField.clear();
        permitsField.sendKeys("0");
        browser.findElement(By.id("permits-interactive-set")).click();
        assertThat(browser.findElement(By.id("permits-interactive-error")).getText()).contains("between 1 and");
        assertThat(browser.findElement(By.id("permits-interactive-size")).getText()).endsWith("/ 8");
    }

    @Test
    void theDerivedThresholdCalculatorRecommendsPermitsAndSaysWhy() {
        logIn(viewer);
        browser.get(url("/console/governance"));
        browser.findElement(By.id("calc-concurrency")).sendKeys("50");
        browser.findElement(By.id("calc-budget")).sendKeys("600");
        browser.findElement(By.id("calc-p99")).sendKeys("3000");
        browser.findElement(By.id("calc-button")).click();

        // min(0.8 × 50, 600/60 × 3 s) = min(40, 30) = 30
        assertThat(browser.findElement(By.id("calc-permits")).getText()).isEqualTo("30");
        assertThat(browser.findElement(By.id("calc-result")).getText()).contains("call budget × p99 latency");
        Browser.screenshot(browser, "console-governance");
    }

    @Test
    void theCalculatorTakesTheMeasuredP99AndAppliesItsResultToALaneAudited() {
        var client = apiKeys.create("calc-" + UUID.randomUUID(), ClientTier.STANDARD);
        Http api = new Http(port, client.key());
        String[] questions = {"退款多久到账", "怎么修改收货地址", "发票怎么开", "会员积分怎么用", "快递几天能到", "可以货到付款吗"};
        int[] asked = {0};
        // enough real interactive LLM calls for a p99 (cache hits do not count, so ask until there are)
        await().atMost(Duration.ofMinutes(3)).until(() -> {
            String q = questions[asked[0] % questions.length] + "（第" + asked[0]++ + "次）";
            api.postJson("/api/v1/chat", "{\"userId\":\"calc-" + UUID.randomUUID() + "\",\"message\":\"" + q + "\"}");
            return MeasuredLatency.p99(meters, "interactive").isPresent();
        });
        int before = permits.size("interactive");
        try {
            logIn(operator);
            browser.get(url("/console/governance"));
            browser.findElement(By.id("calc-concurrency")).sendKeys("10");
            browser.findElement(By.id("calc-budget")).sendKeys("60000");
            Browser.clickAndWaitForPage(browser, By.id("calc-measure"));

            String measuredMs = browser.findElement(By.id("calc-p99")).getAttribute("value");
            assertThat(Long.parseLong(measuredMs)).isPositive();
            assertThat(browser.findElement(By.id("calc-measured")).getText()).contains("interactive");
            Browser.clickAndWaitForPage(browser, By.id("calc-button"));
            int recommended = Integer.parseInt(browser.findElement(By.id("calc-permits")).getText());

            new Select(browser.findElement(By.id("calc-lane"))).selectByValue("interactive");
            Browser.clickAndWaitForPage(browser, By.id("calc-apply"));

            assertThat(permits.size("interactive")).isEqualTo(recommended);
            assertThat(browser.findElement(By.id("permits-interactive-size")).getText()).endsWith("/ " + recommended);
            assertThat(audit.latest(50)).anySatisfy(e -> {
                assertThat(e.action()).isEqualTo("permits.derived");
                assertThat(e.actor()).isEqualTo(operator);
                assertThat(e.after()).contains("permits=" + recommended).contains("C = min(");
            });
            Browser.screenshot(browser, "console-governance-derived-applied");
        } finally {
            permits.resize("interactive", before);
        }
    }

    @Test
    void anUploadedDocumentIsIngestedWithProgressAndFoundByHitTesting() throws Exception {
        String word = "Zorbulator" + UUID.randomUUID().toString().substring(0, 6);
        Path file = Files.createTempDirectory("console-upload").resolve(word + ".md");
        Files.writeString(file, "# " + word + " warranty\n\nEvery " + word + " device carries a warranty of 37 months. "
            + "Repairs under the " + word + " warranty are free of charge.\n", StandardCharsets.UTF_8);
        String id = "console-test:" + word;
        try {
            logIn(operator);
            browser.get(url("/console/knowledge/documents"));
            browser.findElement(By.id("doc-file")).sendKeys(file.toAbsolutePath().toString());
            browser.findElement(By.id("doc-id")).sendKeys(id);
            browser.findElement(By.id("doc-upload")).click();

            // htmx swaps the progress table every second: an element may go stale between find and read
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.cssSelector("tr.upload[data-id='" + id + "']")).getAttribute("data-stage"))
                    .isEqualTo("done"));
            Browser.screenshot(browser, "console-knowledge-documents");

            browser.findElement(By.linkText("Hit testing")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() ->
                browser.findElement(By.id("hit-q")).isDisplayed());
            browser.findElement(By.id("hit-q")).sendKeys(word + " warranty months");
            browser.findElement(By.id("hit-run")).click();
            // the results arrive with the next page: wait for them rather than race the navigation
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions().untilAsserted(() -> {
                WebElement bm25 = browser.findElement(By.cssSelector("section.tier[data-tier='bm25']"));
                assertThat(bm25.getText()).contains(id);
                assertThat(browser.findElement(By.id("hit-path")).getText()).isNotBlank();
            });
            Browser.screenshot(browser, "console-knowledge-hit-test");
            assertThat(audit.latest(50)).anySatisfy(entry -> {
                assertThat(entry.action()).isEqualTo("document.ingest");
                assertThat(entry.target()).isEqualTo(id);
            });
        } finally {
            ingestion.delete(id);
        }
    }

    @Test
    void aLaunchedJobShowsItsProgressBarUntilCompletion() {
        PROVIDER.scenario(Scenario.healthy().withFixedLatency(300));
        String queue = "console-" + UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < 48; i++) {
            workQueue.enqueue(NewWorkItem.of(queue, "deferred_answer", "{\"question\":\"console job item " + i + "\"}"));
        }
        logIn(operator);
        browser.get(url("/console/jobs"));
        browser.findElement(By.id("params-work-queue-drain")).sendKeys("queue=" + queue);
        browser.findElement(By.id("launch-work-queue-drain")).click();

        assertThat(browser.findElement(By.className("notice")).getText()).contains("launched");
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
            assertThat(browser.findElements(By.cssSelector(".job-progress progress"))).isNotEmpty());
        Browser.screenshot(browser, "console-jobs-running");
        // the run's row refreshes itself: no reload, and no Stop button once it has ended
        await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
            WebElement row = browser.findElement(By.cssSelector("#job-work-queue-drain tbody tr"));
            assertThat(row.getAttribute("data-status")).isEqualTo("COMPLETED");
            assertThat(row.getText()).contains("48 written").doesNotContain("UNKNOWN");
            assertThat(row.findElements(By.xpath(".//button[text()='Stop']"))).isEmpty();
            assertThat(row.findElement(By.className("run-duration")).getText()).matches("\\d+ (ms|s)|\\d+ min \\d+ s");
        });
        assertThat(browser.findElement(By.cssSelector("#job-work-queue-drain .job-description")).getText())
            .contains("work queue");
        Browser.screenshot(browser, "console-jobs-completed");
        assertThat(workQueue.depth(queue).getOrDefault(WorkState.DONE, 0L)).isEqualTo(48L);
        assertThat(audit.latest(50)).anySatisfy(entry -> {
            assertThat(entry.action()).isEqualTo("job.launch");
            assertThat(entry.after()).contains(queue);
        });
    }

    @Test
    void deadLetterItemsAreRetriedOrDiscardedFromTheWorkQueuePage() {
        String queue = "console-dead-" + UUID.randomUUID().toString().substring(0, 8);
        long retried = deadItem(queue, "poison item: conversation gone");
        long discarded = deadItem(queue, "LLM degraded: TIMEOUT");
        logIn(operator);
        browser.get(url("/console/queue?state=DEAD&queue=" + queue));
        assertThat(browser.findElement(By.id("item-" + retried)).getText()).contains("conversation gone");
        Browser.screenshot(browser, "console-work-queue");

        browser.findElement(By.cssSelector("#item-" + retried + " button[aria-label='Retry item " + retried + "']")).click();
        assertThat(browser.findElement(By.className("notice")).getText()).contains("queued again");
        browser.get(url("/console/queue?state=DEAD&queue=" + queue));
        browser.findElement(By.cssSelector("button[aria-label='Discard item " + discarded + "']")).click();

        assertThat(workQueue.find(retried)).hasValueSatisfying(item -> assertThat(item.state()).isEqualTo(WorkState.QUEUED));
        // the click submits a form: wait for the server to have handled it
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(workQueue.find(discarded)).isEmpty());
        assertThat(audit.latest(50)).extracting(AuditLog.Entry::action).contains("queue.retry", "queue.discard");
        jdbc.sql("DELETE FROM work_item WHERE queue = ?").param(queue).update();
    }

    @Test
    void anAdminCreatesAClientSeesItsKeyOnceSetsItsTierAndRevokesIt() {
        String name = "client-" + UUID.randomUUID().toString().substring(0, 8);
        logIn(operator);
        browser.get(url("/console/clients"));
        browser.findElement(By.id("client-name")).sendKeys(name);
        browser.findElement(By.id("client-create")).click();

        String key = browser.findElement(By.id("issued-key")).getText();
        assertThat(key).startsWith("sk-sluice-");
        Browser.screenshot(browser, "console-clients");
        assertThat(new Http(port, key).postJson("/api/v1/chat", "{\"userId\":\"c1\",\"message\":\"退款多久到账\"}").statusCode())
            .isEqualTo(200);
        browser.get(url("/console/clients"));
        assertThat(browser.getPageSource()).doesNotContain(key);

        long id = jdbc.sql("SELECT id FROM api_client WHERE name = ?").param(name).query(Long.class).single();
        new Select(browser.findElement(By.id("tier-" + id))).selectByValue("VIP");
        browser.findElement(By.cssSelector("#client-" + id + " form[action$='/tier'] button")).click();
        // the click submits a form: wait for the server to have handled it
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(jdbc.sql("SELECT tier FROM api_client WHERE id = ?").param(id).query(String.class).single())
                .isEqualTo("VIP"));

        browser.findElement(By.cssSelector("#client-" + id + " button[aria-label='Revoke " + name + "']")).click();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(new Http(port, key).postJson("/api/v1/chat", "{\"userId\":\"c1\",\"message\":\"hi\"}").statusCode())
                .isEqualTo(401));
        assertThat(audit.latest(50)).extracting(AuditLog.Entry::action).contains("client.create", "client.tier", "client.revoke");
        assertThat(audit.latest(50)).noneSatisfy(entry -> assertThat(String.valueOf(entry.after())).contains(key));
    }

    @Test
    void aViewerCannotChangeAnythingCheckedOnTheServer() {
        logIn(viewer);
        browser.get(url("/console/governance"));
        assertThat(browser.findElements(By.id("pin-button"))).isEmpty();
        assertThat(browser.findElements(By.id("permits-interactive"))).isEmpty();

        ConsoleSession session = new ConsoleSession(port).logIn(viewer, PASSWORD);
        String token = session.csrfTokenOf("/console");
        Map<String, Map<String, String>> posts = Map.of(
            "/console/governance/permits/interactive", Map.of("permits", "1"),
            "/console/governance/rules/interactive", Map.of("maxThreads", "1"),
            "/console/governance/level/pin", Map.of("level", "L3"),
            "/console/governance/level/unpin", Map.of(),
            "/console/knowledge/faq", Map.of("key", "viewer-faq", "question", "q", "answer", "a"),
            "/console/knowledge/documents/delete", Map.of("externalId", "anything"),
            "/console/knowledge/snapshots/publish", Map.of(),
            "/console/jobs/work-queue-drain/launch", Map.of(),
            "/console/queue/items/1/discard", Map.of(),
            "/console/clients", Map.of("name", "viewer-client", "tier", "VIP"));
        posts.forEach((path, form) -> {
            Map<String, String> withToken = new java.util.HashMap<>(form);
            withToken.put("_csrf", token);
            assertThat(session.postForm(path, withToken).statusCode()).as(path).isEqualTo(403);
        });
        assertThat(session.get("/console/clients").statusCode()).isEqualTo(403);
        assertThat(degradation.state().pinned()).isNull();
        assertThat(gateway.sentinelRules().current().get(Lane.INTERACTIVE).maxThreads()).isNotEqualTo(1);
        assertThat(jdbc.sql("SELECT count(*) FROM api_client WHERE name = 'viewer-client'").query(Long.class).single()).isZero();
    }

    @Test
    void everyPageHasLabelledFieldsKeyboardNavigationAndVisibleFocus() {
        logIn(operator);
        Map<String, String> pages = new java.util.LinkedHashMap<>();
        pages.put("/console/governance", "console-governance-full");
        pages.put("/console/clients", "console-clients-list");
        pages.put("/console/knowledge/documents", "console-knowledge-documents-list");
        pages.put("/console/knowledge/faq", "console-knowledge-faq");
        pages.put("/console/knowledge/snapshots", "console-knowledge-snapshots");
        pages.put("/console/knowledge/hit-test?q=%E9%80%80%E6%AC%BE%E5%A4%9A%E4%B9%85%E5%88%B0%E8%B4%A6", "console-knowledge-hit-test-faq");
        pages.put("/console/jobs", "console-jobs");
        pages.put("/console/queue", "console-work-queue-list");
        JavascriptExecutor js = browser;
        pages.forEach((path, screenshot) -> {
            browser.get(url(path));
            assertThat(browser.findElement(By.tagName("h1")).getText()).as(path).isNotBlank();
            Object unlabelled = js.executeScript("""
                return Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))
                  .filter(el => el.labels.length === 0 && !el.getAttribute('aria-label')).map(el => el.name || el.id);""");
            assertThat((List<?>) unlabelled).as("unlabelled fields on " + path).isEmpty();
            Browser.screenshot(browser, screenshot);
        });

        browser.get(url("/console/governance"));
        browser.findElement(By.tagName("body")).sendKeys(Keys.TAB);
        List<String> reached = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            WebElement focused = browser.switchTo().activeElement();
            reached.add(focused.getText());
            assertThat(focused.getCssValue("outline-style")).as("focus outline of '" + focused.getText() + "'").isNotEqualTo("none");
            focused.sendKeys(Keys.TAB);
        }
        assertThat(reached).contains("Skip to content", "Governance", "Knowledge", "Jobs", "Queue");
    }

    @Test
    void anAdminChangesAProviderAndARouteInTheGatewayFormOnEveryInstanceAndABadTargetChangesNothing() {
        String stored = gatewayProperties.keyPrefix() + "gateway-config";
        String spender = "spender-" + operator;
        HttpResponse<String> v1 = new Http(port, apiKeys.create(spender, ClientTier.STANDARD).key()).postJson(
            "/v1/chat/completions", "{\"model\":\"primary\",\"user\":\"u-" + operator + "\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Where is my parcel?\"}]}");
        assertThat(v1.statusCode()).as(v1.body()).isEqualTo(200);
        try {
            logIn(operator);
            browser.get(url("/console/gateway"));
            assertThat(browser.findElement(By.id("spend")).getText()).as("this month's spend per key and user")
                .contains(spender).contains("u-" + operator);
            WebElement rpm = browser.findElement(By.id("provider-default-rpm"));
            rpm.clear();
            rpm.sendKeys("600");
            browser.findElement(By.id("provider-default-save")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("notice")).getText()).contains("Provider default changed"));
            assertThat(gateway.providers().get("default").settings().rpm()).isEqualTo(600);
            assertThat(gateway.providers().get("default").requests().limit()).isEqualTo(600);
            assertThat(redisson.<String>getBucket(stored, org.redisson.client.codec.StringCodec.INSTANCE).get())
                .as("stored and announced for every instance").contains("\"rpm\":600");
            assertThat(audit.latest(50)).anySatisfy(entry -> {
                assertThat(entry.action()).isEqualTo("gateway.provider");
                assertThat(entry.actor()).isEqualTo(operator);
                assertThat(entry.after()).contains("rpm=600");
            });

            List<io.sluice.governance.route.ModelRoutes.Target> before = gateway.modelRoutes().targets("primary");
            WebElement targets = browser.findElement(By.id("route-primary-targets"));
            targets.clear();
            targets.sendKeys("default:gpt-primary:1, nowhere:gpt-primary:2");
            browser.findElement(By.id("route-primary-save")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.id("route-primary-error")).getText()).contains("unknown provider 'nowhere'"));
            assertThat(gateway.modelRoutes().targets("primary")).isEqualTo(before);
            assertThat(browser.findElement(By.id("route-primary-targets")).getDomProperty("value"))
                .as("the form keeps what was typed").contains("nowhere:gpt-primary:2");
            Browser.screenshot(browser, "console-gateway-route-refused");

            browser.get(url("/console/gateway"));
            targets = browser.findElement(By.id("route-primary-targets"));
            targets.clear();
            targets.sendKeys("default:" + before.get(0).model() + ":3");
            browser.findElement(By.id("route-primary-save")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("notice")).getText()).contains("Route primary changed"));
            assertThat(gateway.modelRoutes().targets("primary")).extracting(t -> t.weight()).containsExactly(3);
            assertThat(browser.findElement(By.id("route-primary")).getText()).contains("changed live");

            // the same through the admin API: a bad route is a 400 problem and changes nothing; the key is audited
            Http admin = new Http(port, apiKeys.create("gateway-admin-" + operator, ClientTier.STANDARD,
                java.util.EnumSet.of(io.sluice.api.auth.ApiScope.ADMIN)).key());
            HttpResponse<String> refused = admin.send("PUT", "/api/v1/gateway/config/routes/light",
                "{\"targets\":[{\"provider\":\"default\",\"model\":\"m\",\"weight\":0}]}", "Content-Type", "application/json");
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).contains("problem+json"));
            assertThat(refused.body()).contains("no target with a positive weight");
            HttpResponse<String> changed = admin.send("PUT", "/api/v1/gateway/config/providers/default",
                "{\"permits\":5,\"enabled\":true}", "Content-Type", "application/json");
            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            assertThat(JSON.readTree(changed.body()).get("rpm").asLong()).as("left out: unchanged").isEqualTo(600);
            assertThat(gateway.providers().get("default").settings().permits()).isEqualTo(5);
            JsonNode config = JSON.readTree(admin.get("/api/v1/gateway/config").body());
            assertThat(config.path("routes").path("primary").path("targets").path(0).path("weight").asInt()).isEqualTo(3);
            assertThat(config.path("overridden").path("routes").has("light")).isFalse();
            assertThat(audit.latest(50)).anySatisfy(entry -> {
                assertThat(entry.action()).isEqualTo("gateway.provider");
                assertThat(entry.source()).isEqualToIgnoringCase("api");
                assertThat(entry.after()).contains("permits=5");
            });
            assertThat(new Http(port, apiKeys.create("gateway-user-" + operator, ClientTier.STANDARD).key())
                .get("/api/v1/gateway/config").statusCode()).as("admin scope only").isEqualTo(403);
        } finally {
            gateway.liveConfig().resetToConfigured();
        }
    }

    private long deadItem(String queue, String error) {
        long id = workQueue.enqueue(NewWorkItem.of(queue, "deferred_answer", "{\"question\":\"dead\"}")).item().id();
        jdbc.sql("UPDATE work_item SET state = 'DEAD', attempts = max_attempts, last_error = ? WHERE id = ?")
            .params(error, id).update();
        return id;
    }

    private JsonNode chat(Http api, String user) {
        return chat(api, user, "退款多久到账");
    }

    private JsonNode chat(Http api, String user, String message) {
        HttpResponse<String> response = api.postJson("/api/v1/chat", "{\"userId\":\"" + user + "\",\"message\":\"" + message + "\"}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private void logIn(String username) {
        browser.get(url("/login"));
        browser.findElement(By.id("username")).sendKeys(username);
        browser.findElement(By.id("password")).sendKeys(PASSWORD);
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        // wait for the login post to be handled (success or /login?error) before the next page load races it
        await().atMost(Duration.ofSeconds(10)).until(() -> !browser.getCurrentUrl().endsWith("/login"));
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
