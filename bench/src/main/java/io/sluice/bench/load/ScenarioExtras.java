package io.sluice.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;

/**
 * What a scenario measured besides its timeline (issue 18): the fast-mode offers made to the generator's
 * SSE streams and what it chose, and the alerts the instances fired. Kept apart from {@link ScenarioResult}
 * so the report's other sections stay as they are; {@link #of} is filled by the runner and read by the report.
 */
final class ScenarioExtras {

    private static final Map<String, ScenarioExtras> RECORDED = new ConcurrentHashMap<>();

    final Offers offers = new Offers();
    /** instance|alert|startsAt → what was seen of that alert. */
    final Map<String, AlertSeen> alerts = new ConcurrentHashMap<>();
    volatile long startedEpochMs;

    static ScenarioExtras of(String scenario) {
        return RECORDED.computeIfAbsent(scenario, k -> new ScenarioExtras());
    }

    static ScenarioExtras fresh(String scenario) {
        ScenarioExtras extras = new ScenarioExtras();
        RECORDED.put(scenario, extras);
        return extras;
    }

    static java.util.Optional<ScenarioExtras> find(String scenario) {
        return java.util.Optional.ofNullable(RECORDED.get(scenario));
    }

    /** One alert of one instance, as the scenario saw it (first firing, last state, largest value). */
    record AlertSeen(String instance, String alert, String severity, long startsAtEpochMs, String status,
            long endsAtEpochMs, double value) {
    }

    /** The offers the generator's streams got, what it chose, and how those requests ended, by choice. */
    static final class Offers {
        final AtomicLong streams = new AtomicLong();
        final AtomicLong offered = new AtomicLong();
        final Map<String, AtomicLong> chosen = new ConcurrentHashMap<>();
        /** status of the choice call (204 taken, 202 forwarded, 404 too late) → count */
        final Map<Integer, AtomicLong> choiceStatus = new ConcurrentHashMap<>();
        /** choice ("none" = not offered) → tier → count */
        final Map<String, Map<String, AtomicLong>> tiers = new ConcurrentHashMap<>();
        /** choice → latency of answered requests, ms */
        final Map<String, Histogram> latency = new ConcurrentHashMap<>();

        void chose(String choice) {
            chosen.computeIfAbsent(choice, k -> new AtomicLong()).incrementAndGet();
        }

        void choiceAnswered(int status) {
            choiceStatus.computeIfAbsent(status, k -> new AtomicLong()).incrementAndGet();
        }

        void ended(String choice, String tier, long latencyMs) {
            tiers.computeIfAbsent(choice, k -> new ConcurrentHashMap<>())
                .computeIfAbsent(tier == null ? "error" : tier, k -> new AtomicLong()).incrementAndGet();
            if (tier != null) {
                Histogram h = latency.computeIfAbsent(choice, k -> new Histogram(3_600_000L, 3));
                synchronized (h) {
                    h.recordValue(Math.max(0, Math.min(latencyMs, 3_600_000L)));
                }
            }
        }

        long chosen(String choice) {
            AtomicLong n = chosen.get(choice);
            return n == null ? 0 : n.get();
        }

        List<String> choices() {
            List<String> out = new ArrayList<>(List.of("fast", "keep", "defer", "none"));
            out.removeIf(c -> !tiers.containsKey(c));
            return out;
        }

        Map<String, Long> tiers(String choice) {
            Map<String, Long> out = new TreeMap<>();
            tiers.getOrDefault(choice, Map.of()).forEach((k, v) -> out.put(k, v.get()));
            return out;
        }
    }
}
