package io.sluice.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import io.sluice.SluiceApplication;
import io.sluice.app.support.Http;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The embedded default: nothing configured, PostgreSQL and Redis start from Maven artifacts, and
 * the data survives a restart.
 */
class EmbeddedModeTest {

    /** The demo client's key, fixed here instead of random (a random one is printed once at first start). */
    private static final String DEMO_KEY = "sk-sluice-embedded-mode-test-key";

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void startsWithNoServersConfiguredAnswersAtF1AndKeepsItsDataAcrossARestart(@TempDir Path dataDir) {
        String sessionId;
        try (ConfigurableApplicationContext app = start(dataDir)) {
            Http http = new Http(port(app), DEMO_KEY);
            JsonNode answer = json.readTree(http.postJson("/api/v1/chat",
                "{\"userId\":\"embedded-user\",\"message\":\"退款多久到账\"}").body());
            assertThat(answer.get("tier").asText()).isEqualTo("F1");
            assertThat(answer.get("answer").asText()).contains("退款");
            sessionId = answer.get("sessionId").asText();

            // health (with details where asked for) lives on the management port, bound to loopback
            JsonNode health = json.readTree(new Http(managementPort(app)).get("/actuator/health").body());
            assertThat(health.get("status").asText()).isEqualTo("UP");
            assertThat(health.at("/components/vectorTier/details/engine").asText()).isEqualTo("lucene-knn");
            assertThat(health.at("/components/llm/details/configured").asBoolean()).isFalse();
            assertThat(health.at("/components/knowledge/details/state").asText())
                .as("the first start's sample load shows its progress").isIn("waiting", "running", "ready");
            assertThat(health.at("/components/knowledge/details/faqEntries").asInt()).isPositive();
        }
        assertThat(Files.exists(dataDir.resolve("postgres/PG_VERSION"))).isTrue();

        try (ConfigurableApplicationContext app = start(dataDir)) {
            JsonNode again = json.readTree(new Http(port(app), DEMO_KEY).postJson("/api/v1/chat",
                "{\"userId\":\"embedded-user\",\"sessionId\":\"" + sessionId + "\",\"message\":\"怎么投诉\"}").body());
            assertThat(again.get("sessionId").asText())
                .as("the session from before the restart is still known")
                .isEqualTo(sessionId);
        }
    }

    private static ConfigurableApplicationContext start(Path dataDir) {
        // command-line arguments outrank the environment: blank URLs = the embedded default
        return new SpringApplicationBuilder(SluiceApplication.class)
            .run("--server.port=0", "--management.server.port=0", "--management.endpoint.health.show-details=always",
                "--sluice.data-dir=" + dataDir, "--sluice.db.url=", "--sluice.redis.url=",
                "--sluice.ingress.auth.demo-key=" + DEMO_KEY);
    }

    private static int managementPort(ConfigurableApplicationContext app) {
        return Integer.parseInt(app.getEnvironment().getProperty("local.management.port"));
    }

    private static int port(ConfigurableApplicationContext app) {
        return Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
    }
}
