package io.sluice.app.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Real headless Chromium (Debian's chromium + chromium-driver; scripts/test.sh installs them) for
 * console tests, at 1366×768 (the smallest laptop screen the console is made for). Screenshots land in
 * app/target/screenshots as test artifacts.
 */
public final class Browser {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target/screenshots");

    private Browser() {
    }

    public static ChromeDriver start() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("console tests need Debian's chromium and chromium-driver "
                + "(apt-get install chromium chromium-driver); scripts/test.sh installs them");
        }
        try {
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM.toFile());
            options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1366,768",
                "--user-data-dir=" + Files.createTempDirectory("sluice-chromium"));
            ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
            ChromeDriver driver = new ChromeDriver(service, options);
            // a find right after a click may race the next page: give it a moment to appear
            driver.manage().timeouts().implicitlyWait(Duration.ofSeconds(3));
            return driver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One Chromium for a test class: started before its first test, quit after its last. Register it with
     * {@code @RegisterExtension static final Browser.PerClass chromium = new Browser.PerClass(d -> browser = d);}
     * so the tests keep using their own {@code browser} field.
     */
    public static final class PerClass implements BeforeAllCallback, AfterAllCallback {

        private final Consumer<ChromeDriver> started;
        private ChromeDriver driver;

        public PerClass(Consumer<ChromeDriver> started) {
            this.started = started;
        }

        @Override
        public void beforeAll(ExtensionContext context) {
            driver = start();
            started.accept(driver);
        }

        @Override
        public void afterAll(ExtensionContext context) {
            if (driver != null) {
                driver.quit();
            }
        }
    }

    /**
     * Logs in on the console's login page and returns once the login post has been handled (the console, or
     * /login?error), so the next page load does not race it and carries the session cookie.
     */
    public static void logIn(ChromeDriver driver, int port, String username, String password) {
        driver.get("http://127.0.0.1:" + port + "/login");
        driver.findElement(By.id("username")).sendKeys(username);
        driver.findElement(By.id("password")).sendKeys(password);
        driver.findElement(By.cssSelector("button[type=submit]")).click();
        await().atMost(Duration.ofSeconds(10)).until(() -> !driver.getCurrentUrl().endsWith("/login"));
    }

    /**
     * Clicks something that loads a new page (a link, a submit button) and returns once that page has
     * replaced the old one, so what the test reads next is the new page, however fast the machine.
     */
    public static void clickAndWaitForPage(ChromeDriver driver, By target) {
        WebElement page = driver.findElement(By.tagName("html"));
        driver.findElement(target).click();
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
        // the old page is gone once touching its root fails: as a stale element, or (Chromium 156, a race of the
        // same thing) as an inspector error that the node no longer belongs to the document
        wait.until(d -> {
            try {
                page.isEnabled();
                return false;
            } catch (WebDriverException gone) {
                return true;
            }
        });
        wait.until(d -> "complete".equals(((JavascriptExecutor) d).executeScript("return document.readyState")));
    }

    public static void screenshot(ChromeDriver driver, String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(SCREENSHOTS.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
