package io.sluice.console.governance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.sluice.api.ingress.UserLimits;
import io.sluice.console.audit.AuditLog;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationPolicy;
import io.sluice.governance.degradation.DegradationState;
import io.sluice.governance.degradation.LevelKnobs;
import io.sluice.governance.derived.DerivedThreshold;
import io.sluice.governance.derived.MeasuredLatency;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.GatewayProperties;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitProperties;
import io.sluice.governance.sentinel.LaneRules;
import io.sluice.governance.sentinel.SentinelRules;

import org.redisson.api.RedissonClient;
import org.springframework.stereotype.Service;

/**
 * What the governance page shows and changes, through the gateway's and the degradation level's own
 * runtime controls (cluster-wide). Every change is audited with before → after.
 */
@Service
public class GovernanceService {

    public static final int MAX_PERMITS = 10_000;

    private final GatewayAssembly gateway;
    private final GatewayProperties gatewayProperties;
    private final PermitProperties permitProperties;
    private final ClusterPermits permits;
    private final DegradationControl degradation;
    private final RedissonClient redisson;
    private final UserLimits userLimits;
    private final AuditLog audit;
    private final MeterRegistry meters;

    public GovernanceService(GatewayAssembly gateway, GatewayProperties gatewayProperties,
            PermitProperties permitProperties, ClusterPermits permits, DegradationControl degradation,
            RedissonClient redisson, UserLimits userLimits, AuditLog audit, ObjectProvider<MeterRegistry> meters) {
        this.meters = meters.getIfAvailable(SimpleMeterRegistry::new);
        this.userLimits = userLimits;
        this.gateway = gateway;
        this.gatewayProperties = gatewayProperties;
        this.permitProperties = permitProperties;
        this.permits = permits;
        this.degradation = degradation;
        this.redisson = redisson;
        this.audit = audit;
    }

    /** One lane as the page shows it. {@code rules} is null when no provider is configured (no Sentinel then). */
    public record LaneView(String lane, int permits, int configuredPermits, int inUse, Duration maxWait, Duration lease,
            Duration budget, int retries, List<Duration> backoff, Duration rateLimitWait, String route,
            String fallbackChain, String breaker, LaneRules rules) {
    }

    public record LevelView(DegradationLevel level, LevelKnobs knobs, double configuredCacheThreshold) {
    }

    public List<LaneView> lanes() {
        SentinelRules rules = gateway.sentinelRules();
        List<LaneView> views = new ArrayList<>();
        for (Lane lane : Lane.values()) {
            PermitProperties.Lane p = permitProperties.lane(lane.key());
            GatewayProperties.LaneConfig c = gatewayProperties.lane(lane);
            String breaker = c.breaker() == null ? "Sentinel only"
                : c.breaker().failures() + " consecutive failures → open " + c.breaker().openFor();
            views.add(new LaneView(lane.key(), clusterSize(lane.key()), p.permits(), permits.inUse(lane.key()),
                p.maxWait(), p.lease(), c.budget(), c.retries(), c.backoff(), c.rateLimitWait(), c.route(),
                fallbackChain(c.route()), breaker, rules == null ? null : rules.current().get(lane)));
        }
        return views;
    }

    /** The lane's cluster-wide permit count as the shared semaphore holds it (read from Redis: resizes show here). */
    public int clusterSize(String lane) {
        try {
            int size = redisson.getPermitExpirableSemaphore(permitProperties.keyPrefix() + lane).getPermits();
            return size > 0 ? size : permits.size(lane);
        } catch (RuntimeException e) {
            return permits.size(lane);
        }
    }

    private String fallbackChain(String route) {
        StringBuilder chain = new StringBuilder(route);
        String next = gatewayProperties.models().get(route) == null ? null : gatewayProperties.models().get(route).fallback();
        int guard = 0;
        while (next != null && !next.isBlank() && guard++ < 10) {
            chain.append(" → ").append(next);
            GatewayProperties.Model model = gatewayProperties.models().get(next);
            next = model == null ? null : model.fallback();
        }
        return chain.toString();
    }

    public boolean providerConfigured() {
        return gateway.sentinelRules() != null;
    }

    public DegradationState level() {
        return degradation.state();
    }

    public List<LevelView> levels() {
        return java.util.Arrays.stream(DegradationLevel.values()).map(l -> new LevelView(l, degradation.knobs(l),
            degradation.configuredKnobs(l).cacheThreshold())).toList();
    }

    public boolean cacheThresholdsOverridden() {
        return !degradation.cacheThresholdOverrides().isEmpty();
    }

    /**
     * Sets the semantic-cache threshold of every level cluster-wide (form fields {@code L0}..{@code L3}).
     *
     * @throws IllegalArgumentException with a message for people; nothing changes then
     */
    public void setCacheThresholds(String actor, Map<String, String> form) {
        Map<DegradationLevel, Double> next = new java.util.EnumMap<>(DegradationLevel.class);
        for (DegradationLevel level : DegradationLevel.values()) {
            next.put(level, parseDouble(form.get(level.name()), "the cache threshold of " + level));
        }
        DegradationPolicy.validateCacheThresholds(next);
        String before = thresholds();
        degradation.overrideCacheThresholds(next, actor);
        audit.record(actor, "cache.thresholds", "semantic cache", before, thresholds());
    }

    public void resetCacheThresholds(String actor) {
        String before = thresholds();
        degradation.resetCacheThresholds(actor);
        audit.record(actor, "cache.thresholds.reset", "semantic cache", before, thresholds());
    }

    private String thresholds() {
        StringBuilder text = new StringBuilder();
        for (DegradationLevel level : DegradationLevel.values()) {
            text.append(text.isEmpty() ? "" : ", ").append(level).append('=').append(degradation.knobs(level).cacheThreshold());
        }
        return text.toString();
    }

    public UserLimits.Limits userLimits() {
        return userLimits.current();
    }

    public UserLimits.Limits configuredUserLimits() {
        return userLimits.configured();
    }

    /**
     * Sets the per-user token bucket's limits by client tier cluster-wide.
     *
     * @return false when Redis was unreachable and only this instance changed
     * @throws IllegalArgumentException with a message for people; nothing changes then
     */
    public boolean setUserLimits(String actor, Map<String, String> form) {
        UserLimits.Limits next = new UserLimits.Limits(parseDouble(form.get("capacity"), "capacity"),
            parseDouble(form.get("refillPerSecond"), "refill per second"),
            parseDouble(form.get("vipMultiplier"), "VIP multiplier"));
        UserLimits.Limits before = userLimits.current();
        boolean everywhere = userLimits.replace(next);
        audit.record(actor, "ingress.user-limits", everywhere ? "per-user token bucket"
            : "per-user token bucket (this instance only: Redis unreachable)", before.toString(), next.toString());
        return everywhere;
    }

    public void resetUserLimits(String actor) {
        UserLimits.Limits before = userLimits.current();
        userLimits.resetToConfigured();
        audit.record(actor, "ingress.user-limits.reset", "per-user token bucket", before.toString(),
            userLimits.current().toString());
    }

    /** Tokens of the current provider window: [used, limit (0 = none)], or null without a provider. */
    public long[] tokens() {
        var limits = gateway.rateLimits();
        if (limits == null) {
            return null;
        }
        try {
            return new long[] {limits.used(), limits.limit()};
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Resizes a lane's permits cluster-wide.
     *
     * @throws IllegalArgumentException with a message for people; nothing changes then
     */
    public void resize(String actor, String lane, String value) {
        int next = parseInt(value, "permits");
        if (next < 1 || next > MAX_PERMITS) {
            throw new IllegalArgumentException("permits must be between 1 and " + MAX_PERMITS + ", was " + next);
        }
        int before = clusterSize(lane);
        permits.resize(lane, next);
        audit.record(actor, "permits.resize", "lane " + lane, "permits=" + before, "permits=" + next);
    }

    /**
     * Replaces one lane's Sentinel rules cluster-wide (validated whole; an invalid set changes nothing).
     *
     * @throws IllegalArgumentException with a message for people
     */
    public void replaceRules(String actor, String laneKey, Map<String, String> form) {
        SentinelRules rules = gateway.sentinelRules();
        if (rules == null) {
            throw new IllegalArgumentException("no LLM provider is configured: Sentinel rules are not in use");
        }
        Lane lane = lane(laneKey);
        LaneRules before = rules.current().get(lane);
        LaneRules next = new LaneRules(parseInt(form.get("maxThreads"), "max threads"),
            parseDouble(form.get("qps"), "QPS"), millis(form.get("slowCallMs"), "slow call"),
            parseDouble(form.get("slowRatio"), "slow ratio"), parseDouble(form.get("errorRatio"), "error ratio"),
            parseInt(form.get("minRequests"), "min requests"), millis(form.get("statIntervalMs"), "stat interval"),
            millis(form.get("openForMs"), "open for"));
        if (next.slowCall().isZero() || next.slowCall().isNegative() || next.statInterval().isZero()
                || next.statInterval().isNegative()) {
            throw new IllegalArgumentException("slow call and stat interval must be positive");
        }
        rules.replace(Map.of(lane, next));
        audit.record(actor, "sentinel.rules", "lane " + laneKey, describe(before), describe(next));
    }

    public void pin(String actor, String level, String reason) {
        DegradationLevel pinned;
        try {
            pinned = DegradationLevel.valueOf(level);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("unknown level '" + level + "'; one of L0, L1, L2, L3");
        }
        String cleanReason = reason == null ? "" : reason.strip().replace("|", "/");
        if (cleanReason.length() > 200) {
            throw new IllegalArgumentException("the reason must be at most 200 characters");
        }
        DegradationState before = degradation.state();
        degradation.pin(pinned, actor, cleanReason);
        audit.record(actor, "degradation.pin", "level", describe(before), "pinned " + pinned
            + (cleanReason.isEmpty() ? "" : " (" + cleanReason + ")"));
    }

    public void unpin(String actor) {
        DegradationState before = degradation.state();
        degradation.unpin(actor);
        audit.record(actor, "degradation.unpin", "level", describe(before), "follows signals: " + degradation.level());
    }

    /** The measured p99 of a lane's LLM calls on this instance (empty until enough calls were made). */
    public Optional<Duration> measuredP99(String laneKey) {
        return MeasuredLatency.p99(meters, lane(laneKey).key());
    }

    /**
     * Applies the derived threshold to a lane's permits cluster-wide, audited with the formula's workings.
     *
     * @return the derivation that was applied
     * @throws IllegalArgumentException with a message for people; nothing changes then
     */
    public DerivedThreshold applyDerived(String actor, String laneKey, String providerConcurrency, String callsPerMinute,
            String p99Ms) {
        Lane lane = lane(laneKey);
        DerivedThreshold derived = derive(providerConcurrency, callsPerMinute, p99Ms);
        if (derived.permits() > MAX_PERMITS) {
            throw new IllegalArgumentException("the formula gives " + derived.permits() + " permits, more than "
                + MAX_PERMITS);
        }
        int before = clusterSize(lane.key());
        permits.resize(lane.key(), derived.permits());
        audit.record(actor, "permits.derived", "lane " + lane.key(), "permits=" + before,
            "permits=" + derived.permits() + " (" + derived.explanation() + ")");
        return derived;
    }

    /** The derived-threshold calculator; throws IllegalArgumentException with a message on bad input. */
    public DerivedThreshold derive(String providerConcurrency, String callsPerMinute, String p99Ms) {
        return DerivedThreshold.derive(parseInt(providerConcurrency, "provider concurrency"),
            parseInt(callsPerMinute, "calls per minute"), millis(p99Ms, "p99"));
    }

    private static String describe(DegradationState state) {
        return state.effective() + (state.pinned() != null ? " pinned by " + state.pinned().actor() : " automatic");
    }

    static String describe(LaneRules r) {
        if (r == null) {
            return null;
        }
        return "maxThreads=" + r.maxThreads() + ", qps=" + r.qps() + ", slowCall=" + r.slowCall().toMillis() + "ms"
            + ", slowRatio=" + r.slowRatio() + ", errorRatio=" + r.errorRatio() + ", minRequests=" + r.minRequests()
            + ", statInterval=" + r.statInterval().toMillis() + "ms, openFor=" + r.openFor().toMillis() + "ms";
    }

    private static Lane lane(String key) {
        for (Lane lane : Lane.values()) {
            if (lane.key().equals(key)) {
                return lane;
            }
        }
        throw new IllegalArgumentException("unknown lane '" + key + "'");
    }

    static int parseInt(String value, String name) {
        try {
            return Integer.parseInt(value == null ? "" : value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + value + "'");
        }
    }

    static double parseDouble(String value, String name) {
        try {
            double d = Double.parseDouble(value == null ? "" : value.strip());
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, was '" + value + "'");
        }
    }

    static Duration millis(String value, String name) {
        long ms = parseInt(value, name + " (ms)");
        if (ms < 0) {
            throw new IllegalArgumentException(name + " must not be negative");
        }
        return Duration.ofMillis(ms);
    }
}
