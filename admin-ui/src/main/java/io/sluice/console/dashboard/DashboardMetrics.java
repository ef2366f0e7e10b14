package io.sluice.console.dashboard;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.sluice.governance.periodic.PeriodicTask;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * A read-only view of this instance's Micrometer meters for the dashboard. Counters only ever grow, so
 * rates come from two readings: one is taken every {@link #SAMPLE_SECONDS} s and kept for an hour (the
 * charts), and the figures compare a fresh reading with the one a window ago.
 *
 * <p>Meters read: {@code http.server.requests} of the chat endpoints (requests), {@code sluice.cache.lookups}
 * (layer l1 = every lookup, result hit on either layer = a hit), {@code sluice.gateway.calls{outcome=rate_limited}}
 * (a provider 429, or a call refused during the shared cool-down one imposed), {@code sluice.gateway.tokens}.
 */
@Component
public class DashboardMetrics implements DisposableBean {

    static final int SAMPLE_SECONDS = 5;
    static final int HISTORY = 3600 / SAMPLE_SECONDS;
    static final Set<String> CHAT_URIS = Set.of("/api/v1/chat", "/api/v1/chat/stream", "/v1/chat/completions");

    /** Cumulative counts at one moment. */
    record Reading(long atMillis, double requests, double cacheLookups, double cacheHits, double rateLimited,
            double tokens) {
    }

    /**
     * Rates over the last minute (requests, tokens) and the last five minutes (cache, 429s); null = nothing
     * measured yet.
     */
    public record Figures(double requestsPerSecond, Double cacheHitRate, long cacheLookups, long providerRateLimited,
            double tokensPerMinute) {
    }

    private final MeterRegistry registry;
    private final Deque<Reading> history = new ArrayDeque<>();
    private final PeriodicTask sampler;

    public DashboardMetrics(MeterRegistry registry) {
        this.registry = registry;
        sample();
        this.sampler = new PeriodicTask("sluice-console-metrics", Duration.ofSeconds(SAMPLE_SECONDS), this::sample);
        sampler.start();
    }

    private void sample() {
        Reading now = read();
        synchronized (history) {
            history.addLast(now);
            while (history.size() > HISTORY) {
                history.removeFirst();
            }
        }
    }

    Reading read() {
        return new Reading(System.currentTimeMillis(),
            timerCount("http.server.requests", m -> CHAT_URIS.contains(m.getId().getTag("uri"))),
            count("sluice.cache.lookups", m -> "l1".equals(m.getId().getTag("layer"))),
            count("sluice.cache.lookups", m -> "hit".equals(m.getId().getTag("result"))),
            count("sluice.gateway.calls", m -> "rate_limited".equals(m.getId().getTag("outcome"))),
            count("sluice.gateway.tokens", m -> true));
    }

    private double count(String name, Predicate<Meter> which) {
        double sum = 0;
        for (Counter counter : registry.find(name).counters()) {
            if (which.test(counter)) {
                sum += counter.count();
            }
        }
        return sum;
    }

    private double timerCount(String name, Predicate<Meter> which) {
        double sum = 0;
        for (Timer timer : registry.find(name).timers()) {
            if (which.test(timer)) {
                sum += timer.count();
            }
        }
        return sum;
    }

    /** The figures now: a fresh reading against the kept one closest to a minute (five minutes) ago. */
    public Figures figures() {
        Reading now = read();
        Reading minute = before(now.atMillis() - 60_000);
        Reading five = before(now.atMillis() - 300_000);
        double seconds = Math.max(1, (now.atMillis() - minute.atMillis()) / 1000.0);
        double lookups = now.cacheLookups() - five.cacheLookups();
        return new Figures((now.requests() - minute.requests()) / seconds,
            lookups > 0 ? (now.cacheHits() - five.cacheHits()) / lookups : null, Math.round(lookups),
            Math.round(now.rateLimited() - five.rateLimited()), (now.tokens() - minute.tokens()) / seconds * 60);
    }

    /** The newest kept reading taken at or before {@code atMillis}; the oldest one when none is that old. */
    private Reading before(long atMillis) {
        synchronized (history) {
            Reading chosen = history.peekFirst();
            for (Reading r : history) {
                if (r.atMillis() > atMillis) {
                    break;
                }
                chosen = r;
            }
            return chosen;
        }
    }

    /**
     * uPlot columns over the last hour, one point per sample interval:
     * [time s], [requests/s], [cache hit % (null when no lookups)], [429s per minute], [tokens per minute].
     */
    public List<List<Number>> series() {
        List<Reading> readings;
        synchronized (history) {
            readings = new ArrayList<>(history);
        }
        List<List<Number>> columns = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            columns.add(new ArrayList<>());
        }
        for (int i = 1; i < readings.size(); i++) {
            Reading a = readings.get(i - 1);
            Reading b = readings.get(i);
            double seconds = Math.max(0.001, (b.atMillis() - a.atMillis()) / 1000.0);
            double lookups = b.cacheLookups() - a.cacheLookups();
            columns.get(0).add(b.atMillis() / 1000);
            columns.get(1).add(round((b.requests() - a.requests()) / seconds));
            columns.get(2).add(lookups > 0 ? round(100 * (b.cacheHits() - a.cacheHits()) / lookups) : null);
            columns.get(3).add(round((b.rateLimited() - a.rateLimited()) / seconds * 60));
            columns.get(4).add(round((b.tokens() - a.tokens()) / seconds * 60));
        }
        return columns;
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    @Override
    public void destroy() {
        sampler.stop();
    }
}
