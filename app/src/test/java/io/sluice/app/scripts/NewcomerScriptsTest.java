package io.sluice.app.scripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The newcomer's path outside the JVM: scripts/run.sh's options, the simulated model's launcher, and
 * docker-compose.yml (LLM settings, JAVA_OPTS, a demo client, a healthcheck that really tells up from down).
 * Cheap: no Spring context, one short-lived mock-provider JVM.
 */
class NewcomerScriptsTest {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void runShHelpNamesEveryOption() throws Exception {
        Result help = bash(Map.of(), "scripts/run.sh --help");
        assertThat(help.code).isZero();
        assertThat(help.out).contains("--demo-llm", "SIMULATED", "--unlock USER", "SLUICE_CONSOLE_UNLOCK", "JAVA_OPTS");
    }

    @Test
    void runShTakesItsOwnOptionsAndPassesTheRestToSluice() throws Exception {
        Result parsed = bash(Map.of("SLUICE_RUN_DRY", "1"), "scripts/run.sh --server.port=9090 --demo-llm --unlock admin");
        assertThat(parsed.code).isZero();
        assertThat(parsed.out.strip()).isEqualTo("demo-llm=1 unlock=admin args=--server.port=9090");

        Result missing = bash(Map.of("SLUICE_RUN_DRY", "1"), "scripts/run.sh --unlock --demo-llm");
        assertThat(missing.code).isEqualTo(2);
        assertThat(missing.err).contains("--unlock needs a console user name");
    }

    @Test
    void theDemoLlmLauncherStartsASimulatedModelThatSaysSoAndStopsIt() throws Exception {
        assertThat(ROOT.resolve("mock-provider/target/classpath.txt"))
            .as("built by the mock-provider module's package phase").exists();
        Path log = Files.createTempFile("demo-llm", ".log");
        Process demo = start(log);
        try {
            String line = new java.io.BufferedReader(new java.io.InputStreamReader(demo.getInputStream(),
                StandardCharsets.UTF_8)).readLine();
            assertThat(line).as("the launcher prints the URL and pid once the model answers").isNotNull();
            String url = line.split(" ")[0];
            long pid = Long.parseLong(line.split(" ")[1]);
            int port = URI.create(url).getPort();
            assertThat(port).as("below Linux's ephemeral range").isBetween(1024, 32767);
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"demo\",\"messages\":[{\"role\":\"user\",\"content\":\"退货运费谁出\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).contains("simulated model", "模拟模型");

            demo.destroy(); // SIGTERM: the launcher's trap stops the model
            assertThat(demo.waitFor(20, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(20)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        } finally {
            demo.destroyForcibly();
        }
    }

    @Test
    void composeGivesSluiceTheLlmSettingsJavaOptsADemoClientAndAHealthcheck() throws Exception {
        Map<String, Object> compose = yaml(ROOT.resolve("docker-compose.yml"));
        Map<String, Object> sluice = map(map(compose.get("services")).get("sluice"));
        Map<String, Object> env = map(sluice.get("environment"));
        assertThat(env).containsKeys("SLUICE_LLM_BASE_URL", "SLUICE_LLM_API_KEY", "SLUICE_LLM_MODEL", "JAVA_OPTS",
            "SLUICE_DEMO_API_KEY");
        assertThat(env.get("SLUICE_DEMO_CLIENT")).as("external mode gets a demo client, printed once")
            .isEqualTo("${SLUICE_DEMO_CLIENT:-always}");
        assertThat(env.get("SLUICE_MANAGEMENT_PORT")).isEqualTo("8081");

        String application = Files.readString(ROOT.resolve("app/src/main/resources/application.yml"));
        assertThat(application).as("the names compose sets are the ones Sluice reads")
            .contains("${SLUICE_DEMO_CLIENT:auto}", "${SLUICE_LLM_API_KEY:}", "${SLUICE_LLM_MODEL:",
                "port: ${SLUICE_MANAGEMENT_PORT:8081}", "address: ${SLUICE_MANAGEMENT_ADDRESS:127.0.0.1}");
        // the image runs with scripts/run.sh's footprint defaults (one file), JAVA_OPTS after them so it wins
        assertThat(Files.readString(ROOT.resolve("Dockerfile"))).contains(
            "COPY scripts/lib/java-defaults.sh /app/java-defaults.sh", ". /app/java-defaults.sh &&",
            "exec java $SLUICE_JAVA_DEFAULTS $JAVA_OPTS -jar /app/sluice.jar");
        assertThat(Files.readString(ROOT.resolve("scripts/lib/java-defaults.sh"))).contains("SLUICE_JAVA_DEFAULTS=\"-Xms64m");

        List<?> test = (List<?>) map(sluice.get("healthcheck")).get("test");
        assertThat(test.get(0)).isEqualTo("CMD");
        assertThat(String.join(" ", test.stream().map(String::valueOf).toList())).contains("127.0.0.1/8081", "/actuator/health");
    }

    @Test
    void theComposeHealthcheckPassesOnlyWhileHealthAnswers200() throws Exception {
        List<?> test = (List<?>) map(map(map(yaml(ROOT.resolve("docker-compose.yml")).get("services")).get("sluice"))
            .get("healthcheck")).get("test");
        String command = String.valueOf(test.get(test.size() - 1));
        int[] status = {200};
        HttpServer health = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        health.createContext("/actuator/health", exchange -> {
            byte[] body = (status[0] == 200 ? "{\"status\":\"UP\"}" : "{\"status\":\"DOWN\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status[0], body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        health.start();
        try {
            String here = command.replace("127.0.0.1/8081", "127.0.0.1/" + health.getAddress().getPort());
            assertThat(bash(Map.of(), here).code).as("up").isZero();
            status[0] = 503;
            assertThat(bash(Map.of(), here).code).as("down").isNotZero();
        } finally {
            health.stop(0);
        }
        assertThat(bash(Map.of(), command.replace("127.0.0.1/8081", "127.0.0.1/" + unusedPort())).code)
            .as("nothing listening").isNotZero();
    }

    private static Process start(Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", """
                . scripts/lib/common.sh; . scripts/lib/demo-llm.sh
                trap 'sluice_demo_llm_stop; exit 0' TERM
                sluice_demo_llm_start "$LOG" || exit 1
                echo "$SLUICE_DEMO_LLM_URL $SLUICE_DEMO_LLM_PID"
                wait
                """).directory(ROOT.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("LOG", log.toString());
        return builder.start();
    }

    private static int unusedPort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    record Result(int code, String out, String err) {
    }

    private static Result bash(Map<String, String> env, String command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", command).directory(ROOT.toFile());
        builder.environment().putAll(env);
        Process p = builder.start();
        p.getOutputStream().close();
        var out = p.getInputStream().readAllBytes();
        var err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    private static Map<String, Object> yaml(Path file) throws IOException {
        return new Yaml().load(Files.readString(file));
    }
}
