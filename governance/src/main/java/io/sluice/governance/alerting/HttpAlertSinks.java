package io.sluice.governance.alerting;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import tools.jackson.databind.json.JsonMapper;

/** The two HTTP sinks: a plain webhook (Alertmanager's webhook format) and Alertmanager's API v2. */
final class HttpAlertSinks {

    private static final JsonMapper JSON = JsonMapper.shared();

    private HttpAlertSinks() {
    }

    /** POSTs a notification to a webhook for each change; re-sends are not sent (a webhook has no expiry). */
    static AlertSink webhook(URI url, Duration timeout, String instance, HttpClient http) {
        return new AlertSink() {
            @Override
            public String name() {
                return "webhook";
            }

            @Override
            public void deliver(List<Alert> alerts, boolean resend) throws IOException, InterruptedException {
                if (resend || alerts.isEmpty()) {
                    return;
                }
                post(http, url, timeout, JSON.writeValueAsString(AlertPayloads.webhook(alerts, instance)));
            }
        };
    }

    /** POSTs alerts to {@code <base>/api/v2/alerts}, re-sending firing ones so they stay active there. */
    static AlertSink alertmanager(URI base, Duration timeout, Duration resendEvery, Clock clock, HttpClient http) {
        URI alerts = URI.create(base.toString().replaceAll("/+$", "") + "/api/v2/alerts");
        return new AlertSink() {
            @Override
            public String name() {
                return "alertmanager";
            }

            @Override
            public void deliver(List<Alert> changed, boolean resend) throws IOException, InterruptedException {
                if (changed.isEmpty()) {
                    return;
                }
                var now = clock.instant();
                post(http, alerts, timeout, JSON.writeValueAsString(
                    changed.stream().map(a -> AlertPayloads.apiAlert(a, now, resendEvery)).toList()));
            }
        };
    }

    private static void post(HttpClient http, URI url, Duration timeout, String body)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("HTTP " + response.statusCode() + " from " + url.getHost() + ":" + url.getPort());
        }
    }
}
