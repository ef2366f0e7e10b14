package io.sluice.governance.alerting;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Alerting ({@code sluice.alerting.*}): rules over the signals the platform measures, sent to a webhook
 * and/or Alertmanager. Without a URL the alerts are still evaluated, counted and listed
 * ({@code GET /api/v1/alerts}).
 *
 * @param enabled         evaluate rules at all
 * @param interval        how often the rules are evaluated
 * @param resendEvery     how often firing alerts are re-sent to Alertmanager (it expires alerts not re-sent)
 * @param deliveryTimeout the bound of one HTTP delivery
 * @param webhookUrl      a webhook receiving Alertmanager-format notifications on every change (optional)
 * @param alertmanagerUrl an Alertmanager base URL; alerts go to {@code /api/v2/alerts} (optional)
 * @param instance        the {@code instance} label (default: the host name)
 * @param rules           the rules; when set, they replace the defaults ({@link #DEFAULT_RULES})
 */
@ConfigurationProperties("sluice.alerting")
public record AlertingProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("5s") Duration interval,
        @DefaultValue("1m") Duration resendEvery,
        @DefaultValue("2s") Duration deliveryTimeout,
        URI webhookUrl,
        URI alertmanagerUrl,
        String instance,
        List<AlertRule> rules) {

    /** The defaults: latency, queue, breaker, level and token budget. */
    public static final List<AlertRule> DEFAULT_RULES = List.of(
        new AlertRule("answer-latency-high", "p95-latency-ms", 8000.0, null, Duration.ofMinutes(2), "warning",
            "p95 latency of LLM answers above 8 s for 2 minutes", false),
        new AlertRule("admission-queue-long", "queue-length", 100.0, null, Duration.ofMinutes(1), "warning",
            "more than 100 requests waiting for admission for a minute", false),
        new AlertRule("llm-breaker-open", "metric:sluice.gateway.breaker.state", 1.5, null, Duration.ZERO, "critical",
            "an LLM lane's breaker is open: that lane answers from lower tiers", false),
        new AlertRule("degraded", "degradation-level", 0.0, null, Duration.ZERO, "warning",
            "the cluster runs above L0 (the value is the level; notified again on every change)", true),
        new AlertRule("token-budget-low", "metric:sluice.gateway.tpm.remaining", null, 1000.0, Duration.ofSeconds(30),
            "warning", "fewer than 1,000 tokens left in the provider's per-minute budget for 30 s", false));

    public AlertingProperties {
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("sluice.alerting.interval must be positive");
        }
        if (resendEvery.compareTo(interval) < 0) {
            throw new IllegalArgumentException("sluice.alerting.resend-every must be at least the interval");
        }
        if (deliveryTimeout.isZero() || deliveryTimeout.isNegative()) {
            throw new IllegalArgumentException("sluice.alerting.delivery-timeout must be positive");
        }
        for (URI url : new URI[] {webhookUrl, alertmanagerUrl}) {
            if (url != null && (url.getScheme() == null || !url.getScheme().matches("https?") || url.getHost() == null)) {
                throw new IllegalArgumentException("sluice.alerting: webhook-url and alertmanager-url must be http(s) "
                    + "URLs with a host");
            }
        }
        rules = rules == null ? DEFAULT_RULES : List.copyOf(rules);
    }
}
