package io.sluice.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.sluice.app.support.Browser;
import io.sluice.app.support.TestServices;
import io.sluice.console.audit.AuditLog;
import io.sluice.console.knowledge.KnowledgeConsole;
import io.sluice.console.users.ConsoleRole;
import io.sluice.console.users.ConsoleUsers;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.sample.KnowledgeBootstrap;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Finding things in the console when there are many of them (conversation filters and pages, FAQ
 * search and pages) and the annotation reply: a corrected answer kept in the FAQ from a transcript.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsoleBrowsingBrowserTest {

    static final String PASSWORD = "correct-horse-battery";
    static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    static ChromeDriver browser;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, "browsing-" + RUN);
    }

    // one Chromium for the class's tests, quit after the last
    @RegisterExtension
    static final Browser.PerClass chromium = new Browser.PerClass(started -> browser = started);

    @LocalServerPort
    int port;

    @Autowired
    ConsoleUsers users;

    @Autowired
    AuditLog audit;

    @Autowired
    KnowledgeConsole knowledge;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    KnowledgeBootstrap bootstrap;

    String operator;

    @BeforeEach
    void operator() {
        operator = "operator-" + UUID.randomUUID().toString().substring(0, 8);
        users.create(operator, PASSWORD, ConsoleRole.OPERATOR, false);
        browser.manage().deleteAllCookies();
    }

    @Test
    void conversationsAreFilteredByTierAndFeedbackAndPagedFiftyAtATime() {
        String user = "paging-" + RUN;
        for (int i = 0; i < 55; i++) {
            conversation(user + "-" + i, "第" + i + "个问题：退款多久到账", "F1", i % 5 == 0 ? "NOT_HELPFUL" : null);
        }
        conversation(user + "-llm", "会员等级怎么升级", "F4", "HELPFUL");

        logIn(operator);
        browser.get(url("/console/conversations?q=" + user));
        assertThat(rows()).hasSize(50);
        assertThat(browser.findElement(By.cssSelector("#conversations tbody")).getText())
            .as("the list shows what the customer asked, not the answer").contains("退款多久到账").doesNotContain("answer to");
        Browser.clickAndWaitForPage(browser, By.id("next-page"));
        assertThat(rows()).hasSize(6);
        assertThat(browser.findElements(By.id("next-page"))).isEmpty();

        browser.get(url("/console/conversations?q=" + user));
        new Select(browser.findElement(By.id("tier"))).selectByValue("F4");
        Browser.clickAndWaitForPage(browser, By.cssSelector("#conversation-filters button"));
        assertThat(rows()).singleElement().satisfies(row -> assertThat(row.getText()).contains(user + "-llm", "F4"));

        new Select(browser.findElement(By.id("tier"))).selectByValue("F1");
        new Select(browser.findElement(By.id("feedback"))).selectByValue("NOT_HELPFUL");
        Browser.clickAndWaitForPage(browser, By.cssSelector("#conversation-filters button"));
        assertThat(rows()).hasSize(11);
        Browser.screenshot(browser, "console-conversations-filtered");

        browser.get(url("/console/conversations?q=" + user + "&from=2030-01-02&to=2030-01-01"));
        assertThat(browser.findElement(By.className("error")).getText()).contains("'from' is after 'to'");
    }

    @Test
    void aCorrectedAnswerIsKeptAsANewFaqEntryAndAsAVariantFromTheTranscript() {
        String faqKey = "annotated-" + RUN;
        UUID conversation = conversation("annotate-" + RUN, "积分可以换现金吗", "F1", "NOT_HELPFUL");

        logIn(operator);
        browser.get(url("/console/conversations/" + conversation));
        assertThat(browser.findElement(By.cssSelector("ul.sources")).getText())
            .as("sources are a readable list, not JSON").contains("积分规则").doesNotContain("{");
        browser.findElement(By.cssSelector("details.annotate summary")).click();
        WebElement answer = browser.findElement(By.id("a-1"));
        answer.clear();
        answer.sendKeys("积分不能兑换现金，可在结算时抵扣订单金额。");
        browser.findElement(By.cssSelector("input[name=mode][value=new]")).click();
        WebElement key = browser.findElement(By.id("k-1"));
        key.clear();
        key.sendKeys(faqKey);
        Browser.screenshot(browser, "console-transcript-annotate");
        browser.findElement(By.id("annotate-1")).click();

        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
            assertThat(browser.findElement(By.className("notice")).getText()).contains(faqKey));
        FaqEntry created = knowledge.faqEntry(faqKey).orElseThrow();
        assertThat(created.question()).isEqualTo("积分可以换现金吗");
        assertThat(created.answer()).isEqualTo("积分不能兑换现金，可在结算时抵扣订单金额。");

        // the same customer question phrased another way becomes a variant of the new entry
        UUID second = conversation("annotate2-" + RUN, "积分能不能提现", "F1", null);
        browser.get(url("/console/conversations/" + second));
        browser.findElement(By.cssSelector("details.annotate summary")).click();
        browser.findElement(By.cssSelector("input[name=mode][value=variant]")).click();
        WebElement variantKey = browser.findElement(By.id("k-1"));
        variantKey.clear();
        variantKey.sendKeys(faqKey);
        browser.findElement(By.id("annotate-1")).click();

        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
            assertThat(browser.findElement(By.className("notice")).getText()).contains(faqKey));
        FaqEntry updated = knowledge.faqEntry(faqKey).orElseThrow();
        assertThat(updated.phrasings()).contains("积分能不能提现");
        assertThat(updated.answer()).as("a variant keeps the entry's answer unless asked").isEqualTo(created.answer());
        assertThat(audit.latest(50)).filteredOn(e -> e.action().equals("faq.annotate"))
            .hasSize(2)
            .allSatisfy(e -> {
                assertThat(e.actor()).isEqualTo(operator);
                assertThat(e.target()).isEqualTo(faqKey);
            });
    }

    @Test
    void theGatewayPageFiltersTheV1RequestLogByStatusAndTier() {
        long client = jdbc.queryForObject("INSERT INTO api_client (name, key_prefix, key_hash) VALUES (?, 'sk-t', ?) RETURNING id",
            Long.class, "gw-log-" + RUN, (RUN + "0".repeat(64)).substring(0, 64));
        jdbc.update("""
            INSERT INTO gateway_request_log (client_id, user_id, model, route, provider, status, tier, latency_ms)
            VALUES (?, 'u1', 'gpt-4o-mini', 'primary', 'openai', 200, 'F4', 812),
                   (?, 'u2', 'gpt-4o-mini', 'primary', null, 503, 'F0', 2004)""", client, client);

        logIn(operator);
        browser.get(url("/console/gateway?key=" + client + "&status=503&tier=F0"));

        List<WebElement> rows = browser.findElements(By.cssSelector("#requests tbody tr"));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getText()).contains("503", "F0", "2004 ms").doesNotContain("812");
        assertThat(browser.findElement(By.id("providers")).getText()).as("the embedded default has no provider")
            .contains("No LLM provider is configured");
    }

    @Test
    void faqEntriesAreSearchedAndPaged() {
        await().atMost(Duration.ofMinutes(3)).until(() -> "ready".equals(bootstrap.status()));
        logIn(operator);
        browser.get(url("/console/knowledge/faq"));
        assertThat(faqRows()).hasSize(25);
        Browser.clickAndWaitForPage(browser, By.id("faq-next"));
        assertThat(browser.findElement(By.cssSelector("#faq-entries .pager")).getText()).contains("page 2 of");
        browser.findElement(By.id("faq-search")).sendKeys("退款");
        Browser.clickAndWaitForPage(browser, By.cssSelector("#faq-entries form button"));
        assertThat(faqRows()).isNotEmpty().allSatisfy(row -> assertThat(row.getText()).contains("退款"));
        Browser.screenshot(browser, "console-knowledge-faq-search");
    }

    @Test
    void aViewerSeesSettingsReadOnlyAndAPlainPageWhereTheRoleIsNotEnough() {
        String viewer = "viewer-" + UUID.randomUUID().toString().substring(0, 8);
        users.create(viewer, PASSWORD, ConsoleRole.VIEWER, false);
        logIn(viewer);

        browser.get(url("/console/users"));
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Not allowed");
        assertThat(browser.getPageSource()).doesNotContain("Whitelabel");
        Browser.screenshot(browser, "console-viewer-forbidden");

        browser.get(url("/console/governance"));
        assertThat(browser.findElement(By.id("threshold-L0")).isEnabled()).isFalse();
        assertThat(browser.findElement(By.id("cache-thresholds-save")).isDisplayed())
            .as("no button that looks as if it would act").isFalse();
        Browser.screenshot(browser, "console-viewer-governance");
    }

    /** A conversation of one question and one answer, as the chat records it. */
    private UUID conversation(String user, String question, String tier, String feedback) {
        UUID id = UUID.randomUUID();
        jdbc.update("INSERT INTO conversation (id, user_id) VALUES (?, ?)", id, user);
        jdbc.update("INSERT INTO conversation_message (conversation_id, request_id, role, content) VALUES (?, ?, 'USER', ?)",
            id, UUID.randomUUID(), question);
        jdbc.update("""
            INSERT INTO conversation_message (conversation_id, request_id, role, content, tier, intent, priority, sources,
                                              feedback)
            VALUES (?, ?, 'ASSISTANT', ?, ?, 'points', 'B', CAST(? AS jsonb), ?)""", id, UUID.randomUUID(),
            "answer to " + question, tier, "[{\"kind\":\"faq\",\"id\":\"pts-001\",\"title\":\"积分规则\",\"score\":0.82}]",
            feedback);
        return id;
    }

    private java.util.List<WebElement> rows() {
        return browser.findElements(By.cssSelector("#conversations tbody tr")).stream()
            .filter(row -> !row.getText().contains("No conversations match")).toList();
    }

    private java.util.List<WebElement> faqRows() {
        return browser.findElements(By.cssSelector("#faq-entries tbody tr")).stream()
            .filter(row -> !row.getText().contains("No FAQ entries match")).toList();
    }

    private void logIn(String username) {
        Browser.logIn(browser, port, username, PASSWORD);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
