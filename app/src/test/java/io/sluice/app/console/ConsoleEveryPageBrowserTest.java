package io.sluice.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import io.sluice.app.support.Browser;
import io.sluice.app.support.ConsoleSession;
import io.sluice.app.support.TestServices;
import io.sluice.console.audit.AuditLog;
import io.sluice.console.security.ConsoleUnlockAtStart;
import io.sluice.console.users.ConsoleRole;
import io.sluice.console.users.ConsoleUsers;
import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.KnowledgeRepository;

import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Every console page at 1366×768 in real Chromium (nothing wider than the window, the page's heading
 * there, a screenshot of each in target/screenshots/page-*.png), the simulated-model label of
 * {@code run.sh --demo-llm} on every page, the way out of a login lockout, and a Word document's chunk view.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsoleEveryPageBrowserTest {

    static final String PASSWORD = "correct-horse-battery";
    static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    static ChromeDriver browser;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, "pages-" + RUN);
        registry.add("sluice.llm.simulated", () -> "true");
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
    JdbcTemplate jdbc;

    @Autowired
    ConsoleUnlockAtStart unlockAtStart;

    @Autowired
    KnowledgeRepository documents;

    @Autowired
    LuceneIndex index;

    String admin;

    @BeforeEach
    void admin() {
        admin = "admin-" + UUID.randomUUID().toString().substring(0, 8);
        users.create(admin, PASSWORD, ConsoleRole.ADMIN, false);
        browser.manage().deleteAllCookies();
    }

    @Test
    void everyPageFitsA1366x768WindowAndSaysTheModelIsSimulated() {
        UUID conversation = conversation("pages-" + RUN, "退货的运费谁来出？");
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("dashboard", "/console");
        pages.put("conversations", "/console/conversations");
        pages.put("transcript", "/console/conversations/" + conversation);
        pages.put("governance", "/console/governance");
        pages.put("gateway", "/console/gateway");
        pages.put("knowledge-documents", "/console/knowledge/documents");
        pages.put("knowledge-faq", "/console/knowledge/faq");
        pages.put("knowledge-candidates", "/console/knowledge/candidates");
        pages.put("knowledge-snapshots", "/console/knowledge/snapshots");
        pages.put("knowledge-hit-test", "/console/knowledge/hit-test");
        pages.put("cache", "/console/cache");
        pages.put("intents", "/console/intents");
        pages.put("jobs", "/console/jobs");
        pages.put("queue", "/console/queue");
        pages.put("audit", "/console/audit");
        pages.put("clients", "/console/clients");
        pages.put("users", "/console/users");
        pages.put("password", "/console/account/password");

        browser.get(url("/login"));
        assertFits("login");
        logIn(admin);
        pages.forEach((name, path) -> {
            browser.get(url(path));
            assertThat(browser.findElement(By.tagName("h1")).getText()).as(name).isNotBlank().doesNotContain("Error");
            assertThat(browser.getPageSource()).as(name).doesNotContain("Whitelabel");
            if (!name.equals("password")) {
                assertThat(browser.findElement(By.id("simulated-model")).getText()).as(name).startsWith("LLM: simulated model");
                assertThat(browser.findElement(By.cssSelector("header nav")).getSize().getHeight())
                    .as(name + ": the sections fit on one line").isLessThan(60);
            }
            assertFits(name);
        });
    }

    @Test
    void anAdminUnlocksAUserLockedOutByFailedLoginsAndSoDoesTheStartupSetting() throws Exception {
        String locked = "locked-" + RUN;
        users.create(locked, PASSWORD, ConsoleRole.OPERATOR, false);
        lockOut(locked);

        logIn(admin);
        browser.get(url("/console/users"));
        WebElement cell = browser.findElement(By.cssSelector("td[data-user='" + locked + "']"));
        assertThat(cell.getText()).contains("locked");
        Browser.screenshot(browser, "console-users-locked");
        Browser.clickAndWaitForPage(browser, By.id("unlock-" + locked));
        assertThat(browser.findElement(By.className("notice")).getText()).contains(locked, "unlocked");
        assertThat(browser.findElement(By.cssSelector("td[data-user='" + locked + "']")).getText()).doesNotContain("locked");
        assertThat(browser.findElements(By.id("unlock-" + locked))).as("nothing to unlock now").isEmpty();
        assertThat(loginWorks(locked)).as("the right password works at once after the unlock").isTrue();
        assertThat(audit.latest(20)).anySatisfy(e -> {
            assertThat(e.action()).isEqualTo("user.unlock");
            assertThat(e.actor()).isEqualTo(admin);
            assertThat(e.target()).isEqualTo(locked);
        });

        String second = "locked2-" + RUN;
        users.create(second, PASSWORD, ConsoleRole.VIEWER, false);
        lockOut(second);
        assertThat(unlockAtStart.unlock(" " + second + " ,")).isEqualTo(1);
        assertThat(loginWorks(second)).isTrue();
        assertThat(audit.latest(20)).anySatisfy(e -> {
            assertThat(e.action()).isEqualTo("user.unlock");
            assertThat(e.actor()).isEqualTo("startup");
            assertThat(e.target()).isEqualTo(second);
        });
    }

    @Test
    void anOperatorSeesAWordDocumentsChunksAndDisablesAndEditsOne() throws Exception {
        String id = "manual-" + RUN;
        Path file = Files.createTempDirectory("upload").resolve("售后手册-" + RUN + ".docx");
        Files.write(file, wordManual());

        logIn(admin);
        browser.get(url("/console/knowledge/documents"));
        browser.findElement(By.id("doc-file")).sendKeys(file.toString());
        browser.findElement(By.id("doc-id")).sendKeys(id);
        browser.findElement(By.id("doc-upload")).click();
        await().atMost(Duration.ofSeconds(60)).until(() -> documents.find(id).isPresent());
        browser.get(url("/console/knowledge/documents"));
        Browser.clickAndWaitForPage(browser, By.cssSelector("a[aria-label='Chunks of " + id + "']"));
        assertThat(browser.findElements(By.cssSelector("#chunks > li"))).hasSize(3);
        assertThat(browser.findElement(By.id("chunks")).getText()).contains("售后服务手册 › 退货", "七天内可无理由退货");
        assertFits("knowledge-chunks");

        Browser.clickAndWaitForPage(browser, By.id("disable-1"));
        assertThat(browser.findElement(By.className("notice")).getText()).contains("disabled");
        assertThat(browser.findElement(By.id("chunk-1")).getAttribute("data-disabled")).isEqualTo("true");
        assertThat(bm25("签收后几天内可以无理由退货")).noneSatisfy(p -> assertThat(p.text()).contains("七天内可无理由退货"));

        browser.findElement(By.id("edit-open-2")).click();
        WebElement text = browser.findElement(By.id("text-2"));
        text.clear();
        text.sendKeys("以旧换新：旧手机折价最高抵 800 元。");
        Browser.clickAndWaitForPage(browser, By.id("save-2"));
        assertThat(browser.findElement(By.id("chunk-2")).getText()).contains("以旧换新", "edited");
        assertThat(bm25("旧手机折价")).anySatisfy(p -> assertThat(p.text()).contains("以旧换新"));
        Browser.screenshot(browser, "page-knowledge-chunks-edited");

        assertThat(audit.latest(20)).extracting(AuditLog.Entry::action)
            .contains("knowledge.chunk.disable", "knowledge.chunk.edit");

        String viewer = "viewer-" + RUN;
        users.create(viewer, PASSWORD, ConsoleRole.VIEWER, false);
        browser.manage().deleteAllCookies();
        logIn(viewer);
        browser.get(url("/console/knowledge/documents/chunks?id=" + id));
        assertThat(browser.findElements(By.cssSelector("#chunks > li"))).as("a viewer sees what was indexed").hasSize(3);
        assertThat(browser.findElements(By.cssSelector("#chunks form"))).as("but no forms").isEmpty();
    }

    private java.util.List<Passage> bm25(String question) {
        return index.searchBm25(question, new SearchFilter(null, java.time.Instant.now()), 10).stream()
            .filter(p -> p.source().documentId().equals("manual-" + RUN)).toList();
    }

    /** Nothing sideways: the page is no wider than the 1366-px window; then a screenshot of it. */
    private void assertFits(String name) {
        JavascriptExecutor js = browser;
        Number scrollWidth = (Number) js.executeScript("return document.documentElement.scrollWidth");
        Number windowWidth = (Number) js.executeScript("return window.innerWidth");
        assertThat(windowWidth.intValue()).isLessThanOrEqualTo(1366);
        assertThat(scrollWidth.intValue()).as(name + " is no wider than the window").isLessThanOrEqualTo(windowWidth.intValue());
        Browser.screenshot(browser, "page-" + name);
    }

    private void lockOut(String username) {
        ConsoleSession session = new ConsoleSession(port);
        for (int i = 0; i < 5; i++) {
            session.tryLogIn(username, "wrong-password-" + i);
        }
        assertThat(loginWorks(username)).as("locked: even the right password is refused").isFalse();
    }

    private boolean loginWorks(String username) {
        HttpResponse<String> login = new ConsoleSession(port).tryLogIn(username, PASSWORD);
        return login.statusCode() == 302 && !login.headers().firstValue("Location").orElse("").contains("error");
    }

    private UUID conversation(String user, String question) {
        UUID id = UUID.randomUUID();
        jdbc.update("INSERT INTO conversation (id, user_id) VALUES (?, ?)", id, user);
        jdbc.update("INSERT INTO conversation_message (conversation_id, request_id, role, content) VALUES (?, ?, 'USER', ?)",
            id, UUID.randomUUID(), question);
        jdbc.update("INSERT INTO conversation_message (conversation_id, request_id, role, content, tier) "
            + "VALUES (?, ?, 'ASSISTANT', ?, 'F1')", id, UUID.randomUUID(), "由商家承担退货运费。");
        return id;
    }

    private static byte[] wordManual() throws Exception {
        try (XWPFDocument doc = new XWPFDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            paragraph(doc, "售后服务手册", "Heading1");
            paragraph(doc, "本手册说明退货与换货。", null);
            paragraph(doc, "退货", "Heading2");
            paragraph(doc, "签收后七天内可无理由退货，商品需完好。", null);
            paragraph(doc, "换货", "Heading2");
            paragraph(doc, "质量问题 15 天内可换货。", null);
            doc.write(out);
            return out.toByteArray();
        }
    }

    private static void paragraph(XWPFDocument doc, String text, String style) {
        XWPFParagraph p = doc.createParagraph();
        if (style != null) {
            p.setStyle(style);
        }
        p.createRun().setText(text);
    }

    private void logIn(String username) {
        Browser.logIn(browser, port, username, PASSWORD);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
