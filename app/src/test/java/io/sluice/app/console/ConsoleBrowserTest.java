package io.sluice.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.app.support.Browser;
import io.sluice.app.support.ConsoleSession;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;
import io.sluice.console.audit.AuditLog;
import io.sluice.console.users.ConsoleRole;
import io.sluice.console.users.ConsoleUsers;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The operator console in real headless Chromium, against the real application and services. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsoleBrowserTest {

    static final String PASSWORD = "correct-horse-battery";
    static ChromeDriver browser;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, UUID.randomUUID().toString());
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
    ApiKeys apiKeys;

    String admin;
    String viewer;

    @BeforeEach
    void users() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        admin = "admin-" + suffix;
        viewer = "viewer-" + suffix;
        users.create(admin, PASSWORD, ConsoleRole.ADMIN, false);
        users.create(viewer, PASSWORD, ConsoleRole.VIEWER, false);
        browser.manage().deleteAllCookies();
    }

    @Test
    void anOperatorLogsInAndSeesTheLiveDashboardConversationsAndAuditLog() {
        String key = apiKeys.create("console-test", ClientTier.STANDARD).key();
        assertThat(new Http(port, key).postJson("/api/v1/chat",
            "{\"userId\":\"console-watcher\",\"message\":\"退款多久到账\"}").statusCode()).isEqualTo(200);

        logIn(admin);

        assertThat(browser.getCurrentUrl()).endsWith("/console");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Dashboard");
        assertThat(browser.findElement(By.id("stats")).getText()).contains("interactive");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(browser.findElements(By.cssSelector("#answers-by-tier canvas"))).isNotEmpty());
        Browser.screenshot(browser, "console-dashboard");

        browser.get(url("/console/conversations?q=console-watcher"));
        assertThat(browser.findElement(By.tagName("tbody")).getText()).contains("console-watcher");
        browser.findElement(By.cssSelector("tbody a")).click();
        assertThat(browser.findElement(By.className("transcript")).getText()).contains("F1").contains("退款");
        Browser.screenshot(browser, "console-transcript");

        browser.get(url("/console/audit"));
        Browser.screenshot(browser, "console-audit");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Audit log");
    }

    @Test
    void anAdminAddsAUserAndTheChangeIsAudited() {
        String newUser = "agent-" + UUID.randomUUID().toString().substring(0, 8);
        logIn(admin);

        browser.get(url("/console/users"));
        browser.findElement(By.id("new-username")).sendKeys(newUser);
        browser.findElement(By.id("new-password")).sendKeys("a-long-enough-password");
        new Select(browser.findElement(By.id("new-role"))).selectByVisibleText("OPERATOR");
        browser.findElement(By.cssSelector("form[action='/console/users'] button")).click();

        assertThat(browser.findElement(By.className("notice")).getText()).contains(newUser);
        Browser.screenshot(browser, "console-users");
        assertThat(users.find(newUser)).hasValueSatisfying(user -> assertThat(user.role()).isEqualTo(ConsoleRole.OPERATOR));
        assertThat(audit.latest(50)).anySatisfy(entry -> {
            assertThat(entry.actor()).isEqualTo(admin);
            assertThat(entry.action()).isEqualTo("user.create");
            assertThat(entry.target()).isEqualTo(newUser);
            assertThat(entry.after()).isEqualTo("role=OPERATOR");
        });
    }

    @Test
    void anInvalidValueShowsAnInlineErrorAndChangesNothing() {
        String newUser = "short-" + UUID.randomUUID().toString().substring(0, 8);
        logIn(admin);

        browser.get(url("/console/users"));
        browser.findElement(By.id("new-username")).sendKeys(newUser);
        browser.findElement(By.id("new-password")).sendKeys("too-short");
        browser.findElement(By.cssSelector("form[action='/console/users'] button")).click();

        assertThat(browser.findElement(By.className("error")).getText()).contains("at least 12 characters");
        Browser.screenshot(browser, "console-invalid-input");
        assertThat(users.find(newUser)).isEmpty();
    }

    @Test
    void aViewerSeesButCannotChangeAnythingCheckedOnTheServer() {
        logIn(viewer);
        assertThat(browser.findElements(By.linkText("Users"))).isEmpty();

        ConsoleSession session = new ConsoleSession(port).logIn(viewer, PASSWORD);
        String token = session.csrfTokenOf("/console"); // the logout form carries it

        assertThat(session.get("/console/users").statusCode()).isEqualTo(403);
        HttpResponse<String> roleChange = session.postForm("/console/users/" + viewer + "/role",
            Map.of("role", "ADMIN", "_csrf", token));
        assertThat(roleChange.statusCode()).isEqualTo(403);
        assertThat(users.find(viewer)).hasValueSatisfying(user -> assertThat(user.role()).isEqualTo(ConsoleRole.VIEWER));
    }

    @Test
    void aFormPostWithoutTheCsrfTokenIsRefused() {
        ConsoleSession session = new ConsoleSession(port).logIn(admin, PASSWORD);
        String newUser = "csrf-" + UUID.randomUUID().toString().substring(0, 8);

        HttpResponse<String> response = session.postForm("/console/users",
            Map.of("username", newUser, "password", "a-long-enough-password", "role", "ADMIN"));

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(users.find(newUser)).isEmpty();
    }

    @Test
    void aOneTimePasswordMustBeReplacedBeforeAnythingElse() {
        String fresh = "fresh-" + UUID.randomUUID().toString().substring(0, 8);
        users.create(fresh, PASSWORD, ConsoleRole.OPERATOR, true);

        logIn(fresh);
        assertThat(browser.getCurrentUrl()).endsWith("/console/account/password");
        browser.get(url("/console/conversations"));
        assertThat(browser.getCurrentUrl()).endsWith("/console/account/password");

        browser.findElement(By.id("current")).sendKeys(PASSWORD);
        browser.findElement(By.id("password")).sendKeys("my-own-new-password");
        browser.findElement(By.id("confirmation")).sendKeys("my-own-new-password");
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(browser.getCurrentUrl()).endsWith("/console"));
        assertThat(users.find(fresh)).hasValueSatisfying(user -> assertThat(user.mustChangePassword()).isFalse());
    }

    @Test
    void repeatedFailedLoginsLockTheNameEvenForTheRightPassword() {
        for (int attempt = 0; attempt < 5; attempt++) {
            logIn(viewer, "wrong-password-" + attempt);
            assertThat(browser.getCurrentUrl()).contains("/login?error");
        }

        logIn(viewer, PASSWORD);

        assertThat(browser.getCurrentUrl()).contains("/login?error");
        Browser.screenshot(browser, "console-login-locked");
    }

    private void logIn(String username) {
        logIn(username, PASSWORD);
    }

    private void logIn(String username, String password) {
        Browser.logIn(browser, port, username, password);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
