package io.sluice.governance.alerting;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * The rules' state machine, one tick at a time: inactive → pending (breached, not yet for {@code after})
 * → firing → resolved. No I/O and no clock of its own, so it is tested tick by tick.
 */
final class AlertEvaluator {

    private static final class RuleState {
        Instant pendingSince;
        Alert firing;
    }

    private final List<AlertRule> rules;
    private final String instance;
    private final Map<String, RuleState> states = new LinkedHashMap<>();

    AlertEvaluator(List<AlertRule> rules, String instance) {
        this.rules = List.copyOf(rules);
        this.instance = instance;
        for (AlertRule rule : this.rules) {
            if (states.put(rule.name(), new RuleState()) != null) {
                throw new IllegalArgumentException("sluice.alerting.rules: two rules are named '" + rule.name() + "'");
            }
        }
    }

    /**
     * Evaluates every rule against the signals read now.
     *
     * @return the alerts that fired, changed value (rules with notifyOnChange) or resolved on this tick
     */
    synchronized List<Alert> evaluate(Function<String, OptionalDouble> signals, Instant now) {
        List<Alert> changed = new ArrayList<>();
        for (AlertRule rule : rules) {
            RuleState state = states.get(rule.name());
            OptionalDouble read = signals.apply(rule.signal());
            boolean breached = read.isPresent() && rule.breached(read.getAsDouble());
            if (!breached) {
                state.pendingSince = null;
                if (state.firing != null) {
                    changed.add(state.firing.resolvedAt(now));
                    state.firing = null;
                }
                continue;
            }
            double value = read.getAsDouble();
            if (state.firing != null) {
                if (rule.notifiesOnChange() && value != state.firing.value()) {
                    state.firing = state.firing.withValue(value);
                    changed.add(state.firing);
                }
                continue;
            }
            if (state.pendingSince == null) {
                state.pendingSince = now;
            }
            if (!Duration.between(state.pendingSince, now).minus(rule.after()).isNegative()) {
                state.firing = new Alert(rule, instance, value, now, null);
                changed.add(state.firing);
            }
        }
        return changed;
    }

    /** The alerts firing now, in rule order. */
    synchronized List<Alert> firing() {
        return states.values().stream().filter(s -> s.firing != null).map(s -> s.firing).toList();
    }

    List<AlertRule> rules() {
        return rules;
    }
}
