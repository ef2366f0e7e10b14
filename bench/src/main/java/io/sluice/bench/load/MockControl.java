package io.sluice.bench.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import io.sluice.mock.MockCounters;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** Drives the mock provider process over its control endpoints ({@code /_mock/scenario}, counters, reset). */
final class MockControl {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    MockControl(String base) {
        this.base = base;
    }

    /** Overlays the given scenario fields (see {@code io.sluice.mock.Scenario}). */
    void scenario(Map<String, Object> fields) {
        send(HttpRequest.newBuilder(URI.create(base + "/_mock/scenario"))
            .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(fields))));
    }

    MockCounters counters() {
        return JSON.readValue(send(HttpRequest.newBuilder(URI.create(base + "/_mock/counters")).GET()), MockCounters.class);
    }

    void reset() {
        send(HttpRequest.newBuilder(URI.create(base + "/_mock/reset")).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private String send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IllegalStateException("mock control " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException("mock control failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
