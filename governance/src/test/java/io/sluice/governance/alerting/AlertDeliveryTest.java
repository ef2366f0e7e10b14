package io.sluice.governance.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationSignals;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Alerts reach a real HTTP receiver, in Alertmanager's webhook format and through its API v2. */
class AlertDeliveryTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final AtomicInteger breakerState = new AtomicInteger();
    private final List<String> webhook = new CopyOnWriteArrayList<>();
    private final List<String> alertmanager = new CopyOnWriteArrayList<>();
    private HttpServer receiver;
    private Alerting alerting;

    @BeforeEach
    void start() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            webhook.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.createContext("/am/api/v2/alerts", exchange -> {
            alertmanager.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        Gauge.builder("sluice.gateway.breaker.state", breakerState, AtomicInteger::get).tag("lane", "interactive")
            .register(meters);
        Gauge.builder("sluice.gateway.breaker.state", () -> 0).tag("lane", "intent").register(meters);
        String base = "http://127.0.0.1:" + receiver.getAddress().getPort();
        HttpClient http = HttpClient.newHttpClient();
        Duration timeout = Duration.ofSeconds(2);
        alerting = new Alerting(List.of(new AlertRule("llm-breaker-open", "metric:sluice.gateway.breaker.state", 1.5,
                null, Duration.ZERO, "critical", "a breaker is open", false)),
            "i-1", new AlertSignals(meters, () -> DegradationSignals.IDLE, () -> DegradationLevel.L0),
            List.of(HttpAlertSinks.webhook(URI.create(base + "/hook"), timeout, "i-1", http),
                HttpAlertSinks.alertmanager(URI.create(base + "/am/"), timeout, Duration.ofMinutes(1),
                    Clock.systemUTC(), http)),
            Duration.ofSeconds(1), Duration.ofMinutes(1), meters, Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        alerting.close();
        receiver.stop(0);
    }

    @Test
    void anOpenBreakerOnAnyLaneFires_andItsClosingResolves_atBothReceivers() {
        alerting.tick();
        assertThat(alerting.firing()).isEmpty();

        breakerState.set(2); // the interactive lane's breaker opens
        alerting.tick();
        await().atMost(Duration.ofSeconds(10)).until(() -> webhook.size() == 1 && alertmanager.size() == 1);

        JsonNode hook = JsonMapper.shared().readTree(webhook.get(0));
        assertThat(hook.get("status").asString()).isEqualTo("firing");
        JsonNode alert = hook.get("alerts").get(0);
        assertThat(alert.get("labels").get("alertname").asString()).isEqualTo("llm-breaker-open");
        assertThat(alert.get("labels").get("severity").asString()).isEqualTo("critical");
        assertThat(alert.get("annotations").get("value").asString()).isEqualTo("2.000");
        assertThat(alert.get("endsAt").asString()).isEqualTo(AlertPayloads.ZERO_TIME);
        JsonNode am = JsonMapper.shared().readTree(alertmanager.get(0)).get(0);
        assertThat(am.get("labels").get("instance").asString()).isEqualTo("i-1");
        assertThat(java.time.Instant.parse(am.get("endsAt").asString())).isAfter(java.time.Instant.now());
        assertThat(meters.get("sluice.alerts.firing").tag("alert", "llm-breaker-open").gauge().value()).isEqualTo(1);
        assertThat(meters.get("sluice.alerts.fired").counter().count()).isEqualTo(1);

        breakerState.set(0);
        alerting.tick();
        await().atMost(Duration.ofSeconds(10)).until(() -> webhook.size() == 2 && alertmanager.size() == 2);
        assertThat(JsonMapper.shared().readTree(webhook.get(1)).get("status").asString()).isEqualTo("resolved");
        assertThat(alerting.recent()).hasSize(2);
        assertThat(meters.get("sluice.alerts.deliveries").tags(Map.of("sink", "webhook", "outcome", "ok").entrySet()
            .stream().flatMap(e -> java.util.stream.Stream.of(e.getKey(), e.getValue())).toArray(String[]::new))
            .counter().count()).isEqualTo(2);
    }

    @Test
    void aReceiverThatIsDownIsCountedNotThrown() {
        receiver.stop(0);
        breakerState.set(2);
        alerting.tick();
        await().atMost(Duration.ofSeconds(10)).until(() -> meters.find("sluice.alerts.deliveries")
            .tag("outcome", "failed").counters().stream().mapToDouble(c -> c.count()).sum() >= 2);
        assertThat(alerting.firing()).hasSize(1);
    }
}
