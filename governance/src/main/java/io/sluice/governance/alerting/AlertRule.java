package io.sluice.governance.alerting;

import java.time.Duration;
import java.util.Locale;

/**
 * One alerting rule: a signal compared with a bound, held for a while. Like a Prometheus rule, on the
 * signals the platform already measures.
 *
 * @param name           the alert's name ({@code alertname} label), unique
 * @param signal         what is read: {@code p95-latency-ms}, {@code error-ratio}, {@code permit-occupancy},
 *                       {@code queue-length}, {@code degradation-level}, or {@code metric:<meter name>} (the
 *                       largest value among that meter's series; negative values mean "no data")
 * @param above          fires while the signal is above this (or null)
 * @param below          fires while the signal is below this (or null); exactly one of above/below is set
 * @param after          how long the condition must hold before the alert fires (0 = at once)
 * @param severity       {@code info}, {@code warning} or {@code critical}
 * @param summary        a human sentence for the notification
 * @param notifyOnChange whether a firing alert notifies again when the signal's value changes (level changes)
 */
public record AlertRule(String name, String signal, Double above, Double below, Duration after, String severity,
        String summary, Boolean notifyOnChange) {

    public AlertRule {
        if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_-]{0,63}")) {
            throw new IllegalArgumentException("sluice.alerting.rules: a rule needs a name of letters, digits, - or _ "
                + "(at most 64), got '" + name + "'");
        }
        if (signal == null || signal.isBlank()) {
            throw new IllegalArgumentException("sluice.alerting.rules." + name + ": signal is required");
        }
        if ((above == null) == (below == null)) {
            throw new IllegalArgumentException("sluice.alerting.rules." + name + ": set exactly one of above / below");
        }
        after = after == null ? Duration.ZERO : after;
        if (after.isNegative()) {
            throw new IllegalArgumentException("sluice.alerting.rules." + name + ": after must not be negative");
        }
        severity = severity == null ? "warning" : severity.toLowerCase(Locale.ROOT);
        if (!AlertSignals.known(signal)) {
            throw new IllegalArgumentException("sluice.alerting.rules." + name + ": unknown signal '" + signal
                + "' (p95-latency-ms, error-ratio, permit-occupancy, queue-length, degradation-level or metric:<name>)");
        }
        if (!severity.equals("info") && !severity.equals("warning") && !severity.equals("critical")) {
            throw new IllegalArgumentException("sluice.alerting.rules." + name + ": severity must be info, warning or "
                + "critical");
        }
        summary = summary == null || summary.isBlank() ? name + ": " + signal + " " + (above != null ? "> " + above : "< " + below) : summary;
        notifyOnChange = notifyOnChange != null && notifyOnChange;
    }

    /** Whether a firing alert notifies again when its value changes. */
    public boolean notifiesOnChange() {
        return Boolean.TRUE.equals(notifyOnChange);
    }

    /** Whether {@code value} breaks the bound. */
    boolean breached(double value) {
        return above != null ? value > above : value < below;
    }

    String bound() {
        return above != null ? "> " + above : "< " + below;
    }

    /** A rule with a default summary: sugar for configuration and tests. */
    public static AlertRule above(String name, String signal, double bound, Duration after, String severity) {
        return new AlertRule(name, signal, bound, null, after, severity, null, false);
    }

    public static AlertRule below(String name, String signal, double bound, Duration after, String severity) {
        return new AlertRule(name, signal, null, bound, after, severity, null, false);
    }
}
