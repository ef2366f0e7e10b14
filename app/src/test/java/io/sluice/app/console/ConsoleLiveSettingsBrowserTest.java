package io.sluice.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.ingress.RateLimitProperties;
import io.sluice.api.ingress.UserLimits;
import io.sluice.app.support.Browser;
import io.sluice.app.support.ConsoleSession;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.batch.faq.FaqCandidateStore;
import io.sluice.console.audit.AuditLog;
import io.sluice.console.knowledge.KnowledgeConsole;
import io.sluice.console.users.ConsoleRole;
import io.sluice.console.users.ConsoleUsers;
import io.sluice.governance.allocation.TokenAllocation;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationProperties;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The console's live settings (per-user limits by client tier, semantic-cache thresholds per level), its
 * dashboard figures, FAQ entry editing, snapshots and the review of mined FAQ candidates, in real headless
 * Chromium against the real application and services; only the LLM provider is the mock.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsoleLiveSettingsBrowserTest {

    static final String PASSWORD = "correct-horse-battery";
    static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    static final long TPM_LIMIT = 200_000;
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final MockProvider PROVIDER = MockProvider.start(0);
    static ChromeDriver browser;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        // this run's own Redis keys and data dir: a change here never leaks into another test run on the same Redis
        TestServices.isolated(registry, RUN);
        registry.add("sluice.llm.base-url", PROVIDER::baseUrl);
        registry.add("sluice.gateway.tpm.limit", () -> Long.toString(TPM_LIMIT));
        registry.add("sluice.batch.jobs.work-queue-drain.enabled", () -> "false");
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
    @Autowired UserLimits userLimits;
    @Autowired RateLimitProperties rateLimitProperties;
    @Autowired DegradationControl degradation;
    @Autowired DegradationProperties degradationProperties;
    @Autowired RedissonClient redisson;
    @Autowired KnowledgeConsole knowledge;
    @Autowired FaqCandidateStore candidates;
    @Autowired JdbcClient jdbc;
    @Autowired TokenAllocation allocation;

    String operator;
    String viewer;

    @BeforeEach
    void users() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        operator = "ops-" + suffix;
        viewer = "viewer-" + suffix;
        users.create(operator, PASSWORD, ConsoleRole.OPERATOR, false);
        users.create(viewer, PASSWORD, ConsoleRole.VIEWER, false);
        browser.manage().deleteAllCookies();
        PROVIDER.scenario(Scenario.healthy().withFixedLatency(20));
    }

    @Test
    void theDashboardShowsTrafficCacheHitsProviderRateLimitsTokensAndBreakersAfterChatCalls() {
        Http api = new Http(port, apiKeys.create("console-dash-" + RUN + "-" + operator, ClientTier.STANDARD).key());
        String question = "退款多久到账";
        // the same question from other users of the same client: the second is served from the semantic cache
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
            assertThat(chat(api, "dash-" + UUID.randomUUID(), question).get("cached").asBoolean()).isTrue());
        // another client has its own cache key space: the same question goes to the provider, which answers 429
        Http other = new Http(port, apiKeys.create("console-dash-429-" + RUN + "-" + operator, ClientTier.STANDARD).key());
        PROVIDER.scenario(Scenario.healthy().withRateLimited(1.0, 1));
        chat(other, "dash-429", question);
        PROVIDER.scenario(Scenario.healthy().withFixedLatency(20));

        logIn(viewer);
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
            browser.get(url("/console"));
            assertThat(number(browser.findElement(By.id("fig-requests")).getText())).isPositive();
            assertThat(browser.findElement(By.id("fig-hit-rate")).getText()).matches("\\d+ %");
            assertThat(number(browser.findElement(By.id("fig-hit-rate")).getText())).isPositive();
            assertThat(Long.parseLong(browser.findElement(By.id("fig-hit-rate")).getAttribute("data-lookups"))).isGreaterThanOrEqualTo(2);
            assertThat(Long.parseLong(browser.findElement(By.id("fig-429")).getText())).isPositive();
            assertThat(number(browser.findElement(By.id("fig-tokens")).getText())).isPositive();
            assertThat(browser.findElement(By.id("fig-admission-queue-S")).getText()).matches("\\d+");
            assertThat(browser.findElement(By.id("fig-admission-queue-B")).getText()).matches("\\d+");
        });
        WebElement budget = browser.findElement(By.id("fig-token-budget"));
        assertThat(budget.getAttribute("data-limit")).isEqualTo(Long.toString(TPM_LIMIT));
        assertThat(Long.parseLong(budget.getAttribute("data-used"))).isPositive();
        assertThat(browser.findElement(By.id("breaker-interactive-primary")).getAttribute("data-state"))
            .isIn("CLOSED", "OPEN", "HALF_OPEN");
        assertThat(browser.findElement(By.id("breaker-interactive")).getText()).contains("primary");
        assertThat(browser.findElement(By.id("dash-level-effective")).getText()).isEqualTo(degradation.level().name());
        assertThat(browser.findElement(By.id("dash-level-reason")).getText()).isNotBlank();
        // the charts are drawn from the same meters
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
            assertThat(browser.findElements(By.cssSelector("#traffic-chart canvas, #tokens-chart canvas"))).hasSize(2));
        Browser.screenshot(browser, "console-dashboard-figures");
    }

    @Test
    void tokenSharesByRequestTypeAreShownAndShareAndReserveAreEditedLiveAuditedAndAnInvalidValueChangesNothing() {
        Http api = new Http(port, apiKeys.create("console-alloc-" + RUN + "-" + operator, ClientTier.STANDARD).key());
        chat(api, "alloc-" + UUID.randomUUID(), "退款多久到账");
        try {
            logIn(operator);
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
                browser.get(url("/console"));
                WebElement chatRow = browser.findElement(By.id("token-share-chat_answer"));
                assertThat(Long.parseLong(chatRow.getAttribute("data-tokens"))).isPositive();
                assertThat(chatRow.getText()).contains("interactive");
            });
            assertThat(browser.findElement(By.id("token-share-summary")).getAttribute("data-tokens")).isEqualTo("0");
            fill("allocation-share", "150");
            browser.findElement(By.id("allocation-save")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("error")).getText()).contains("share must be between"));
            assertThat(allocation.settings()).isEqualTo(allocation.configuredSettings());

            fill("allocation-share", "50");
            fill("allocation-reserve", "40");
            browser.findElement(By.id("allocation-save")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("notice")).getText()).contains("share 50 %, reserve 40 %"));
            assertThat(allocation.settings()).isEqualTo(new TokenAllocation.Settings(0.5, 0.4));
            assertThat(browser.findElement(By.id("token-allocation-source")).getText()).contains("Changed at runtime");
            Browser.screenshot(browser, "console-dashboard-token-allocation");
            assertThat(audit.latest(50)).anySatisfy(entry -> {
                assertThat(entry.actor()).isEqualTo(operator);
                assertThat(entry.action()).isEqualTo("gateway.allocation");
                assertThat(entry.after()).isEqualTo("share 50 %, reserve 40 %");
            });
            browser.findElement(By.id("allocation-reset")).click();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(allocation.settings()).isEqualTo(allocation.configuredSettings()));
        } finally {
            allocation.resetToConfigured();
        }
    }

    @Test
    void perUserLimitsByTierAreEditedTakeEffectOnEveryInstanceAndAnInvalidValueChangesNothing() {
        UserLimits.Limits before = userLimits.current();
        // a second instance's view of the same shared setting
        try (UserLimits otherInstance = new UserLimits(redisson, rateLimitProperties.user())) {
            logIn(operator);
            browser.get(url("/console/governance"));
            fill("limits-capacity", "0");
            browser.findElement(By.id("user-limits-save")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.id("user-limits-error")).getText()).contains("capacity must be between 1"));
            assertThat(browser.findElement(By.id("limits-capacity")).getAttribute("value")).isEqualTo("0");
            assertThat(browser.findElement(By.id("limits-capacity")).getAttribute("aria-invalid")).isEqualTo("true");
            Browser.screenshot(browser, "console-governance-invalid-user-limits");
            assertThat(userLimits.current()).isEqualTo(before);

            browser.get(url("/console/governance"));
            fill("limits-capacity", "2");
            fill("limits-refill", "0.01");
            fill("limits-vip", "4");
            browser.findElement(By.id("user-limits-save")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("notice")).getText()).contains("Per-user limits now"));
            assertThat(browser.findElement(By.id("limits-standard-capacity")).getText()).isEqualTo("2");
            assertThat(browser.findElement(By.id("limits-vip-capacity")).getText()).isEqualTo("8");
            Browser.screenshot(browser, "console-governance-user-limits");
            UserLimits.Limits expected = new UserLimits.Limits(2, 0.01, 4);
            assertThat(userLimits.current()).isEqualTo(expected);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(otherInstance.current()).isEqualTo(expected));

            // in effect: a new STANDARD user starts with half of 2 tokens, a VIP user with half of 8
            Http standard = new Http(port, apiKeys.create("limits-std-" + RUN + "-" + operator, ClientTier.STANDARD).key());
            Http vip = new Http(port, apiKeys.create("limits-vip-" + RUN + "-" + operator, ClientTier.VIP).key());
            assertThat(post(standard, "limited-user", "你好").statusCode()).isEqualTo(200);
            HttpResponse<String> refused = post(standard, "limited-user", "你好");
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            for (int i = 0; i < 3; i++) {
                assertThat(post(vip, "vip-user", "你好").statusCode()).as("VIP request %d", i + 1).isEqualTo(200);
            }
            assertThat(audit.latest(50)).anySatisfy(entry -> {
                assertThat(entry.actor()).isEqualTo(operator);
                assertThat(entry.action()).isEqualTo("ingress.user-limits");
                assertThat(entry.before()).isEqualTo(before.toString());
                assertThat(entry.after()).isEqualTo("capacity=2, refill=0.01/s, vip×4");
            });
            assertThat(audit.latest(50)).noneSatisfy(entry -> assertThat(entry.after()).contains("capacity=0"));
        } finally {
            userLimits.resetToConfigured();
        }
    }

    @Test
    void cacheThresholdsPerLevelAreEditedTakeEffectOnEveryInstanceAndAnInvalidSetChangesNothing() {
        Map<DegradationLevel, Double> before = thresholds(degradation);
        DegradationControl otherInstance = new DegradationControl(redisson, degradationProperties, List.of(),
            new SimpleMeterRegistry(), Clock.systemUTC());
        otherInstance.start();
        try {
            logIn(operator);
            browser.get(url("/console/governance"));
            fillThresholds("0.95", "0.9", "0.93", "0.8");
            browser.findElement(By.id("cache-thresholds-save")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.id("cache-thresholds-error")).getText()).contains("must not be above L1"));
            assertThat(browser.findElement(By.id("threshold-L2")).getAttribute("value")).isEqualTo("0.93");
            assertThat(browser.findElement(By.id("threshold-L2")).getAttribute("aria-invalid")).isEqualTo("true");
            Browser.screenshot(browser, "console-governance-invalid-cache-thresholds");
            assertThat(thresholds(degradation)).isEqualTo(before);

            browser.get(url("/console/governance"));
            fillThresholds("0.95", "0.9", "0.8", "0.4");
            browser.findElement(By.id("cache-thresholds-save")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.id("cache-thresholds-error")).getText()).contains("between 0.5 and 1.0"));
            assertThat(thresholds(degradation)).isEqualTo(before);

            browser.get(url("/console/governance"));
            fillThresholds("0.95", "0.9", "0.8", "0.75");
            browser.findElement(By.id("cache-thresholds-save")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("notice")).getText()).contains("thresholds replaced"));
            Map<DegradationLevel, Double> expected = Map.of(DegradationLevel.L0, 0.95, DegradationLevel.L1, 0.9,
                DegradationLevel.L2, 0.8, DegradationLevel.L3, 0.75);
            assertThat(thresholds(degradation)).isEqualTo(expected);
            // the other knobs of a level stay as configured: only the threshold is overridden
            assertThat(degradation.knobs(DegradationLevel.L2).topK())
                .isEqualTo(degradation.configuredKnobs(DegradationLevel.L2).topK());
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(thresholds(otherInstance)).isEqualTo(expected));
            assertThat(browser.findElement(By.id("threshold-L3")).getAttribute("value")).isEqualTo("0.75");
            assertThat(browser.findElement(By.id("cache-thresholds-source")).getText()).contains("Overridden");
            Browser.screenshot(browser, "console-governance-cache-thresholds");
            assertThat(audit.latest(50)).anySatisfy(entry -> {
                assertThat(entry.actor()).isEqualTo(operator);
                assertThat(entry.action()).isEqualTo("cache.thresholds");
                assertThat(entry.before()).contains("L3=" + before.get(DegradationLevel.L3));
                assertThat(entry.after()).isEqualTo("L0=0.95, L1=0.9, L2=0.8, L3=0.75");
            });

            browser.findElement(By.id("cache-thresholds-reset")).click();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(thresholds(degradation)).isEqualTo(before));
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(thresholds(otherInstance)).isEqualTo(before));
            assertThat(audit.latest(50)).extracting(AuditLog.Entry::action).contains("cache.thresholds.reset");
        } finally {
            otherInstance.close();
            degradation.resetCacheThresholds("test-cleanup");
        }
    }

    @Test
    void aFaqEntryIsCreatedThenItsPhrasingsAndValidityEdited() {
        String key = "console-faq-" + RUN + "-" + UUID.randomUUID().toString().substring(0, 4);
        try {
            logIn(operator);
            browser.get(url("/console/knowledge/faq"));
            browser.findElement(By.id("faq-key")).sendKeys(key);
            browser.findElement(By.id("faq-question")).sendKeys("积分什么时候过期");
            browser.findElement(By.id("faq-phrasings")).sendKeys("积分有效期多久");
            browser.findElement(By.id("faq-answer")).sendKeys("积分自获得之日起 12 个月内有效。");
            browser.findElement(By.id("faq-save")).click();
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("notice")).getText()).contains(key));

            browser.findElement(By.cssSelector("a[aria-label='Edit " + key + "']")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.id("faq-key")).getAttribute("readonly")).isNotNull());
            WebElement phrasings = browser.findElement(By.id("faq-phrasings"));
            phrasings.clear();
            phrasings.sendKeys("积分有效期多久", Keys.ENTER, "积分会不会清零");
            setDate("faq-from", "2026-01-01");
            setDate("faq-until", "2030-12-31");
            Browser.screenshot(browser, "console-knowledge-faq-edit");
            browser.findElement(By.id("faq-save")).click();
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("notice")).getText()).contains(key));

            FaqEntry saved = knowledge.faqEntry(key).orElseThrow();
            assertThat(saved.phrasings()).containsExactly("积分有效期多久", "积分会不会清零");
            assertThat(saved.validFrom()).hasToString("2026-01-01T00:00:00Z");
            assertThat(saved.validUntil()).hasToString("2030-12-31T00:00:00Z");
            assertThat(browser.findElement(By.xpath("//tr[td[text()='" + key + "']]")).getText())
                .contains("积分会不会清零").contains("2026-01-01 – 2030-12-31");
            Browser.screenshot(browser, "console-knowledge-faq-edited");
            assertThat(audit.latest(50)).anySatisfy(entry -> {
                assertThat(entry.action()).isEqualTo("faq.update");
                assertThat(entry.target()).isEqualTo(key);
                assertThat(entry.before()).contains("phrasings=[积分有效期多久]").contains("valid always");
                assertThat(entry.after()).contains("积分会不会清零").contains("2030-12-31");
            });
            assertThat(audit.latest(50)).anySatisfy(entry -> {
                assertThat(entry.action()).isEqualTo("faq.create");
                assertThat(entry.target()).isEqualTo(key);
            });
        } finally {
            knowledge.deleteFaq("test-cleanup", key);
        }
    }

    @Test
    void aSnapshotIsPublishedAndAnOlderOneRolledBackTo() {
        logIn(operator);
        browser.get(url("/console/knowledge/snapshots"));
        browser.findElement(By.id("snapshot-publish")).click();
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
            assertThat(browser.findElement(By.className("notice")).getText()).contains("published"));
        long first = version(browser.findElement(By.id("snapshot-current")).getText());

        browser.findElement(By.id("snapshot-publish")).click();
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
            assertThat(version(browser.findElement(By.id("snapshot-current")).getText())).isGreaterThan(first));
        long second = version(browser.findElement(By.id("snapshot-current")).getText());
        Browser.screenshot(browser, "console-knowledge-snapshot-published");

        browser.findElement(By.cssSelector("button[aria-label='Publish v" + first + " again']")).click();
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
            assertThat(browser.findElement(By.className("notice")).getText()).contains("v" + first + " is published again");
            assertThat(browser.findElement(By.id("snapshot-current")).getText()).isEqualTo("v" + first);
        });
        assertThat(knowledge.currentSnapshot().version()).isEqualTo(first);
        Browser.screenshot(browser, "console-knowledge-snapshot-rolled-back");
        assertThat(audit.latest(50)).anySatisfy(entry -> {
            assertThat(entry.actor()).isEqualTo(operator);
            assertThat(entry.action()).isEqualTo("faq.snapshot.publish");
            assertThat(entry.after()).startsWith("v" + second);
        });
        assertThat(audit.latest(50)).anySatisfy(entry -> {
            assertThat(entry.action()).isEqualTo("faq.snapshot.rollback");
            assertThat(entry.before()).isEqualTo("v" + second);
            assertThat(entry.after()).isEqualTo("v" + first);
        });
    }

    @Test
    void minedFaqCandidatesAreApprovedMergedAndRejected() {
        String tag = RUN + UUID.randomUUID().toString().substring(0, 4);
        long approved = candidates.insert("会员卡丢了怎么补办 " + tag, List.of("会员卡补办流程 " + tag), 9_003, 5, 1);
        long merged = candidates.insert("会员卡补办要多久 " + tag, List.of("补卡几天能好 " + tag), 9_002, 3, 0);
        long rejected = candidates.insert("你们老板是谁 " + tag, List.of(), 9_001, 0, 0);
        String key = "cand-key-" + tag;
        try {
            logIn(operator);
            browser.get(url("/console/knowledge/candidates"));
            assertThat(browser.findElement(By.id("cand-" + approved)).getText()).contains("会员卡丢了怎么补办").contains("9003 asked");
            Browser.screenshot(browser, "console-knowledge-candidates");

            // no answer: refused next to the candidate, which stays proposed
            browser.findElement(By.id("approve-" + approved + "-key")).sendKeys(key);
            browser.findElement(By.id("approve-" + approved)).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.id("cand-" + approved + "-error")).getText()).contains("answer is required"));
            assertThat(browser.findElement(By.id("approve-" + approved + "-key")).getAttribute("value")).isEqualTo(key);
            assertThat(candidates.find(approved).orElseThrow().status()).isEqualTo("PROPOSED");
            Browser.screenshot(browser, "console-knowledge-candidates-invalid");

            browser.findElement(By.id("approve-" + approved + "-answer")).sendKeys("携带身份证到任一门店即可当场补办。");
            browser.findElement(By.id("approve-" + approved)).click();
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("notice")).getText()).contains("approved as FAQ entry '" + key + "'"));
            assertThat(candidates.find(approved).orElseThrow().status()).isEqualTo("APPROVED");
            FaqEntry entry = knowledge.faqEntry(key).orElseThrow();
            assertThat(entry.answer()).isEqualTo("携带身份证到任一门店即可当场补办。");
            assertThat(entry.phrasings()).contains("会员卡补办流程 " + tag);

            new Select(browser.findElement(By.id("merge-" + merged + "-key"))).selectByValue(key);
            browser.findElement(By.id("merge-" + merged)).click();
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("notice")).getText()).contains("merged into FAQ entry '" + key + "'"));
            assertThat(knowledge.faqEntry(key).orElseThrow().phrasings())
                .contains("会员卡补办要多久 " + tag, "补卡几天能好 " + tag);

            browser.findElement(By.id("reject-" + rejected)).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.className("notice")).getText()).contains("Candidate " + rejected + " rejected"));
            assertThat(candidates.find(rejected).orElseThrow().status()).isEqualTo("REJECTED");
            assertThat(browser.findElements(By.id("cand-" + rejected))).isEmpty();

            new Select(browser.findElement(By.id("cand-status"))).selectByValue("REJECTED");
            browser.findElement(By.id("cand-filter")).click();
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(browser.findElement(By.id("cand-" + rejected + "-decision")).getText()).contains("REJECTED by " + operator));
            Browser.screenshot(browser, "console-knowledge-candidates-rejected");

            assertThat(audit.latest(50)).filteredOn(e -> e.actor().equals(operator)).extracting(AuditLog.Entry::action)
                .contains("faq.candidate.approve", "faq.candidate.merge", "faq.candidate.reject");
            assertThat(audit.latest(50)).anySatisfy(e -> {
                assertThat(e.action()).isEqualTo("faq.candidate.merge");
                assertThat(e.target()).isEqualTo("candidate " + merged);
                assertThat(e.after()).isEqualTo("MERGED into FAQ entry " + key);
            });
        } finally {
            knowledge.deleteFaq("test-cleanup", key);
            jdbc.sql("DELETE FROM faq_candidate WHERE id IN (?, ?, ?)").params(approved, merged, rejected).update();
        }
    }

    @Test
    void aViewerCannotChangeTheNewSettingsCheckedOnTheServer() {
        long candidate = candidates.insert("viewer candidate " + RUN, List.of(), 1, 0, 0);
        try {
            UserLimits.Limits limits = userLimits.current();
            Map<DegradationLevel, Double> thresholds = thresholds(degradation);
            ConsoleSession session = new ConsoleSession(port).logIn(viewer, PASSWORD);
            String token = session.csrfTokenOf("/console");
            Map<String, Map<String, String>> posts = Map.of(
                "/console/governance/user-limits", Map.of("capacity", "1", "refillPerSecond", "1", "vipMultiplier", "1"),
                "/console/governance/user-limits/reset", Map.of(),
                "/console/governance/cache-thresholds", Map.of("L0", "0.99", "L1", "0.99", "L2", "0.99", "L3", "0.99"),
                "/console/governance/cache-thresholds/reset", Map.of(),
                "/console/knowledge/candidates/" + candidate + "/approve", Map.of("answer", "viewer answer"),
                "/console/knowledge/candidates/" + candidate + "/reject", Map.of());
            posts.forEach((path, form) -> {
                Map<String, String> withToken = new java.util.HashMap<>(form);
                withToken.put("_csrf", token);
                assertThat(session.postForm(path, withToken).statusCode()).as(path).isEqualTo(403);
            });
            assertThat(userLimits.current()).isEqualTo(limits);
            assertThat(thresholds(degradation)).isEqualTo(thresholds);
            assertThat(candidates.find(candidate).orElseThrow().status()).isEqualTo("PROPOSED");

            logIn(viewer);
            browser.get(url("/console/knowledge/candidates"));
            assertThat(browser.findElement(By.id("cand-" + candidate)).getText()).contains("viewer candidate");
            assertThat(browser.findElements(By.id("approve-" + candidate))).isEmpty();
        } finally {
            jdbc.sql("DELETE FROM faq_candidate WHERE id = ?").param(candidate).update();
        }
    }

    @Test
    void theNewPagesHaveLabelledFieldsKeyboardNavigationAndVisibleFocus() {
        long candidate = candidates.insert("a11y candidate " + RUN, List.of("a11y wording " + RUN), 99_999, 1, 0);
        try {
            logIn(operator);
            JavascriptExecutor js = browser;
            for (String path : List.of("/console", "/console/governance", "/console/knowledge/candidates")) {
                browser.get(url(path));
                assertThat(browser.findElement(By.tagName("h1")).getText()).as(path).isNotBlank();
                Object unlabelled = js.executeScript("""
                    return Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))
                      .filter(el => el.labels.length === 0 && !el.getAttribute('aria-label')).map(el => el.name || el.id);""");
                assertThat((List<?>) unlabelled).as("unlabelled fields on " + path).isEmpty();
            }

            // from the top of the candidates page, the keyboard reaches the tabs and the review forms, focus visible
            browser.get(url("/console/knowledge/candidates"));
            browser.findElement(By.tagName("body")).sendKeys(Keys.TAB);
            List<String> reached = new ArrayList<>();
            for (int i = 0; i < 40 && !reached.contains("approve-" + candidate + "-question"); i++) {
                WebElement focused = browser.switchTo().activeElement();
                reached.add(focused.getAttribute("id") == null || focused.getAttribute("id").isEmpty()
                    ? focused.getText() : focused.getAttribute("id"));
                assertThat(focused.getCssValue("outline-style")).as("focus outline of " + reached.get(reached.size() - 1)).isNotEqualTo("none");
                focused.sendKeys(Keys.TAB);
            }
            assertThat(reached).contains("Skip to content", "FAQ candidates", "cand-status", "approve-" + candidate + "-question");
            Browser.screenshot(browser, "console-knowledge-candidates-focus");

            // the new governance fields are reached by keyboard too
            browser.get(url("/console/governance"));
            browser.findElement(By.id("pin-reason")).sendKeys(Keys.TAB);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 40 && !ids.contains("limits-vip"); i++) {
                WebElement focused = browser.switchTo().activeElement();
                ids.add(focused.getAttribute("id"));
                assertThat(focused.getCssValue("outline-style")).isNotEqualTo("none");
                focused.sendKeys(Keys.TAB);
            }
            assertThat(ids).contains("threshold-L0", "threshold-L3", "cache-thresholds-save", "limits-capacity", "limits-vip");
        } finally {
            jdbc.sql("DELETE FROM faq_candidate WHERE id = ?").param(candidate).update();
        }
    }

    private static Map<DegradationLevel, Double> thresholds(DegradationControl control) {
        Map<DegradationLevel, Double> thresholds = new java.util.EnumMap<>(DegradationLevel.class);
        for (DegradationLevel level : DegradationLevel.values()) {
            thresholds.put(level, control.knobs(level).cacheThreshold());
        }
        return thresholds;
    }

    private void fillThresholds(String l0, String l1, String l2, String l3) {
        fill("threshold-L0", l0);
        fill("threshold-L1", l1);
        fill("threshold-L2", l2);
        fill("threshold-L3", l3);
    }

    private void fill(String id, String value) {
        WebElement field = browser.findElement(By.id(id));
        field.clear();
        field.sendKeys(value);
    }

    /** Date inputs take keyboard input in the browser's locale order: set the ISO value directly. */
    private void setDate(String id, String isoDate) {
        ((JavascriptExecutor) browser).executeScript("arguments[0].value = arguments[1];", browser.findElement(By.id(id)), isoDate);
    }

    private static double number(String text) {
        return Double.parseDouble(text.replaceAll("[^0-9.]", ""));
    }

    private static long version(String text) {
        return Long.parseLong(text.replace("v", "").strip());
    }

    private HttpResponse<String> post(Http api, String user, String message) {
        return api.postJson("/api/v1/chat", "{\"userId\":\"" + user + "\",\"message\":\"" + message + "\"}");
    }

    private JsonNode chat(Http api, String user, String message) {
        HttpResponse<String> response = post(api, user, message);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private void logIn(String username) {
        browser.get(url("/login"));
        browser.findElement(By.id("username")).sendKeys(username);
        browser.findElement(By.id("password")).sendKeys(PASSWORD);
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        // the next page load must carry the session cookie: wait for the login post to have been handled
        await().atMost(Duration.ofSeconds(10)).until(() -> !browser.getCurrentUrl().contains("/login"));
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
