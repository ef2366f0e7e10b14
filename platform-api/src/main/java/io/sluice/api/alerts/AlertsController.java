package io.sluice.api.alerts;

import java.time.Instant;
import java.util.List;

import io.sluice.governance.alerting.Alert;
import io.sluice.governance.alerting.AlertRule;
import io.sluice.governance.alerting.Alerting;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/alerts} (operator scope): this instance's firing alerts, the latest notifications and
 * the rules in force. The same alerts go to the configured webhook / Alertmanager (docs/alerting.md).
 */
@RestController
@RequestMapping(path = "/api/v1/alerts", produces = MediaType.APPLICATION_JSON_VALUE)
public class AlertsController {

    public record AlertView(String alert, String severity, String summary, String signal, double value,
            String status, Instant startsAt, Instant endsAt) {

        static AlertView of(Alert a) {
            return new AlertView(a.rule().name(), a.rule().severity(), a.rule().summary(), a.rule().signal(), a.value(),
                a.firing() ? "firing" : "resolved", a.startsAt(), a.endsAt());
        }
    }

    public record AlertsView(boolean enabled, List<AlertView> firing, List<AlertView> recent, List<AlertRule> rules) {
    }

    private final ObjectProvider<Alerting> alerting;

    public AlertsController(ObjectProvider<Alerting> alerting) {
        this.alerting = alerting;
    }

    @GetMapping
    public AlertsView alerts() {
        Alerting a = alerting.getIfAvailable();
        if (a == null) {
            return new AlertsView(false, List.of(), List.of(), List.of());
        }
        return new AlertsView(true, a.firing().stream().map(AlertView::of).toList(),
            a.recent().stream().map(AlertView::of).toList(), a.rules());
    }
}
