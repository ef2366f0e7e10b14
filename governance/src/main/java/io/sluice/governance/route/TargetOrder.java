package io.sluice.governance.route;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import io.sluice.governance.provider.ProviderPool;

/**
 * The order in which one call tries a route's targets. Healthy targets come first, the first of them
 * drawn by weight ÷ (1 + calls in flight at its provider) — load balancing by weight and least in flight
 * — the rest by that score; then targets whose provider is "low" on its announced quota (the proactive
 * shift); then those whose breaker is open (a half-open probe may still pass). Zero-weight targets are
 * standbys: only tried when the weighted ones could not answer. Targets of a disabled provider are left out.
 */
public final class TargetOrder {

    private TargetOrder() {
    }

    public static List<ModelRoutes.Target> order(List<ModelRoutes.Target> targets, Function<String, ProviderPool.Member> providers) {
        if (targets.stream().anyMatch(t -> !providers.apply(t.provider()).enabled())) {
            // a provider an operator disabled is not tried at all (not even as a last resort)
            targets = targets.stream().filter(t -> providers.apply(t.provider()).enabled()).toList();
        }
        if (targets.size() <= 1) {
            return targets;
        }
        List<ModelRoutes.Target> healthy = new ArrayList<>();
        List<ModelRoutes.Target> standby = new ArrayList<>();
        List<ModelRoutes.Target> low = new ArrayList<>();
        List<ModelRoutes.Target> open = new ArrayList<>();
        for (ModelRoutes.Target t : targets) {
            ProviderPool.Member p = providers.apply(t.provider());
            if (p.breaker().state() == io.sluice.governance.breaker.ConsecutiveFailureBreaker.State.OPEN) {
                open.add(t);
            } else if (p.low()) {
                low.add(t);
            } else if (t.weight() == 0) {
                standby.add(t);
            } else {
                healthy.add(t);
            }
        }
        List<ModelRoutes.Target> ordered = new ArrayList<>(targets.size());
        if (!healthy.isEmpty()) {
            double[] scores = new double[healthy.size()];
            double sum = 0;
            for (int i = 0; i < scores.length; i++) {
                scores[i] = healthy.get(i).weight() / (1.0 + providers.apply(healthy.get(i).provider()).inFlight());
                sum += scores[i];
            }
            double draw = ThreadLocalRandom.current().nextDouble() * sum;
            int first = scores.length - 1;
            for (int i = 0; i < scores.length; i++) {
                draw -= scores[i];
                if (draw < 0) {
                    first = i;
                    break;
                }
            }
            ordered.add(healthy.remove(first));
            healthy.sort(Comparator.comparingDouble((ModelRoutes.Target t) ->
                -t.weight() / (1.0 + providers.apply(t.provider()).inFlight())));
            ordered.addAll(healthy);
        }
        ordered.addAll(standby);
        ordered.addAll(low);
        ordered.addAll(open);
        return ordered;
    }
}
