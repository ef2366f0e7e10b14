package io.sluice.governance.alerting;

import java.time.Instant;

/**
 * An alert as it is sent and listed: firing (endsAt null) or resolved.
 *
 * @param rule     the rule that fired
 * @param instance which Sluice instance saw it
 * @param value    the signal's value when the alert fired or last changed
 * @param startsAt when it fired
 * @param endsAt   when it resolved, or null while firing
 */
public record Alert(AlertRule rule, String instance, double value, Instant startsAt, Instant endsAt) {

    public boolean firing() {
        return endsAt == null;
    }

    Alert withValue(double newValue) {
        return new Alert(rule, instance, newValue, startsAt, endsAt);
    }

    Alert resolvedAt(Instant when) {
        return new Alert(rule, instance, value, startsAt, when);
    }
}
