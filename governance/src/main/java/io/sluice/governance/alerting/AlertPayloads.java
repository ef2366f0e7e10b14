package io.sluice.governance.alerting;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Alerts in Alertmanager's shapes: the API v2 alert ({@code POST /api/v2/alerts}) and the webhook
 * notification (what Alertmanager itself sends to a webhook receiver), so one receiver serves both.
 */
final class AlertPayloads {

    /** What Alertmanager uses for "not resolved" in webhook notifications. */
    static final String ZERO_TIME = "0001-01-01T00:00:00Z";

    private AlertPayloads() {
    }

    static Map<String, String> labels(Alert alert) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("alertname", alert.rule().name());
        labels.put("severity", alert.rule().severity());
        labels.put("instance", alert.instance());
        labels.put("service", "sluice");
        return labels;
    }

    static Map<String, String> annotations(Alert alert) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("summary", alert.rule().summary());
        annotations.put("signal", alert.rule().signal() + " " + alert.rule().bound());
        annotations.put("value", String.format(Locale.ROOT, "%.3f", alert.value()));
        return annotations;
    }

    /**
     * An Alertmanager API v2 alert. A firing alert carries an end a few re-sends ahead, so Alertmanager
     * resolves it by itself if this instance dies and stops re-sending.
     */
    static Map<String, Object> apiAlert(Alert alert, Instant now, Duration resendEvery) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("labels", labels(alert));
        a.put("annotations", annotations(alert));
        a.put("startsAt", alert.startsAt().toString());
        a.put("endsAt", (alert.firing() ? now.plus(resendEvery.multipliedBy(3)) : alert.endsAt()).toString());
        return a;
    }

    /** A webhook notification in Alertmanager's webhook format (version 4). */
    static Map<String, Object> webhook(List<Alert> alerts, String instance) {
        boolean anyFiring = alerts.stream().anyMatch(Alert::firing);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("version", "4");
        body.put("receiver", "sluice");
        body.put("status", anyFiring ? "firing" : "resolved");
        body.put("groupLabels", Map.of());
        body.put("commonLabels", Map.of("service", "sluice", "instance", instance));
        body.put("alerts", alerts.stream().map(alert -> {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("status", alert.firing() ? "firing" : "resolved");
            a.put("labels", labels(alert));
            a.put("annotations", annotations(alert));
            a.put("startsAt", alert.startsAt().toString());
            a.put("endsAt", alert.firing() ? ZERO_TIME : alert.endsAt().toString());
            return a;
        }).toList());
        return body;
    }
}
