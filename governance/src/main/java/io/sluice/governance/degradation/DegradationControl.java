package io.sluice.governance.degradation;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;

import io.sluice.governance.periodic.PeriodicTask;

import org.redisson.api.RBucket;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The cluster-wide degradation level, kept in Redis.
 *
 * <p>Each instance evaluates its own signals with a {@link LevelController} (hysteresis) and writes
 * its proposal, with a timestamp, into one Redis hash; the automatic level is the worst live proposal
 * (a crashed instance's proposal ages out after {@code proposalTtl}). An operator pin, also in Redis,
 * overrides it for every instance. The request path reads a local volatile copy refreshed every
 * {@code tick}: no Redis round trip per request, and a Redis outage keeps the last known state (plus
 * this instance's own proposal). Every change of the effective level is logged with its reason and
 * counted ({@code sluice.degradation.changes}); the level is a gauge ({@code sluice.degradation.level}).
 *
 * <p>Operator overrides of the levels' semantic-cache thresholds travel the same way as the pin: one
 * Redis key, re-read every tick, applied to the {@link DegradationPolicy} of every instance.
 */
public class DegradationControl implements SmartLifecycle, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DegradationControl.class);

    private final RedissonClient redisson;
    private final DegradationProperties properties;
    private final DegradationPolicy policy;
    private final LevelController controller;
    private final Iterable<DegradationSignalSource> sources;
    private final MeterRegistry meters;
    private final Clock clock;
    private final String instanceId = UUID.randomUUID().toString();
    private final Object lock = new Object();
    private volatile DegradationState state;
    private PeriodicTask ticks;
    private final io.sluice.governance.route.RouteShift routeShift;

    public DegradationControl(RedissonClient redisson, DegradationProperties properties,
            Iterable<DegradationSignalSource> sources, MeterRegistry meters, Clock clock) {
        this(redisson, properties, sources, meters, clock, null);
    }

    /** @param routeShift moves a level's route change in steps (null = at once) */
    public DegradationControl(RedissonClient redisson, DegradationProperties properties,
            Iterable<DegradationSignalSource> sources, MeterRegistry meters, Clock clock,
            io.sluice.governance.route.RouteShift.Settings routeShift) {
        this.routeShift = routeShift == null ? null
            : new io.sluice.governance.route.RouteShift(routeShift, properties.levels().get(DegradationLevel.L0).modelRoute());
        this.redisson = redisson;
        this.properties = properties;
        this.policy = new DegradationPolicy(properties);
        this.controller = new LevelController(policy, properties.upAfter());
        this.sources = sources;
        this.meters = meters != null ? meters : Metrics.globalRegistry;
        this.clock = clock;
        this.state = new DegradationState(DegradationLevel.L0, DegradationLevel.L0, null, "start", clock.instant());
        Gauge.builder("sluice.degradation.level", this, control -> control.level().ordinal())
            .description("effective degradation level (0 = L0 normal … 3 = L3 no LLM)")
            .register(this.meters);
    }

    /** Starts the periodic evaluation once every bean exists (SmartLifecycle), so ticks never race startup. */
    @Override
    public synchronized void start() {
        if (ticks != null && ticks.isRunning()) {
            return;
        }
        refresh();
        ticks = new PeriodicTask("sluice-degradation", properties.tick(), this::tick);
        ticks.start();
    }

    @Override
    public synchronized void stop() {
        if (ticks != null) {
            ticks.stop();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return ticks != null && ticks.isRunning();
    }

    @Override
    public void close() {
        stop();
    }

    /** The level in force (local copy, no I/O). */
    public DegradationLevel level() {
        return state.effective();
    }

    /**
     * The knobs of the level in force for one call. While a level change moves the model route, the
     * route is drawn per call from the gradual shift (the other knobs change at once).
     */
    public LevelKnobs knobs() {
        LevelKnobs knobs = policy.knobs(level());
        if (routeShift == null) {
            return knobs;
        }
        String route = routeShift.pick(knobs.modelRoute());
        return route.equals(knobs.modelRoute()) ? knobs : knobs.withModelRoute(route);
    }

    /** The share of interactive calls on {@code route} now (1 or 0 unless a route change is moving). */
    public double routeShare(String route) {
        return routeShift == null ? (route.equals(knobs().modelRoute()) ? 1 : 0) : routeShift.shareOf(route);
    }

    public LevelKnobs knobs(DegradationLevel level) {
        return policy.knobs(level);
    }

    public DegradationState state() {
        return state;
    }

    /** The level's knobs as configured, before any runtime override. */
    public LevelKnobs configuredKnobs(DegradationLevel level) {
        return policy.configuredKnobs(level);
    }

    /** The cache-threshold overrides in force on this instance (empty = as configured). */
    public Map<DegradationLevel, Double> cacheThresholdOverrides() {
        return policy.cacheThresholdOverrides();
    }

    /**
     * Overrides the semantic-cache threshold of every level cluster-wide; here at once, elsewhere within a tick.
     *
     * @throws IllegalArgumentException when the thresholds are invalid ({@link DegradationPolicy#validateCacheThresholds});
     *                                  nothing changes then
     */
    public void overrideCacheThresholds(Map<DegradationLevel, Double> thresholds, String actor) {
        DegradationPolicy.validateCacheThresholds(thresholds);
        StringBuilder encoded = new StringBuilder();
        for (DegradationLevel level : DegradationLevel.values()) {
            encoded.append(encoded.isEmpty() ? "" : ",").append(thresholds.get(level));
        }
        thresholdsBucket().set(encoded.toString());
        log.info("degradation: {} set the cache thresholds L0..L3 to {}", actor, encoded);
        refresh();
    }

    /** Back to the configured cache thresholds, cluster-wide. */
    public void resetCacheThresholds(String actor) {
        thresholdsBucket().delete();
        log.info("degradation: {} reset the cache thresholds to the configured ones", actor);
        refresh();
    }

    /** Pins the level cluster-wide until {@link #unpin}; takes effect here at once, elsewhere within a tick. */
    public void pin(DegradationLevel level, String actor, String reason) {
        DegradationState.Pin pin = new DegradationState.Pin(level, actor, reason == null ? "" : reason);
        pinBucket().set(level.name() + "|" + actor + "|" + pin.reason());
        log.info("degradation: {} pinned {} ({})", actor, level, pin.reason());
        refresh();
    }

    public void unpin(String actor) {
        pinBucket().delete();
        log.info("degradation: {} removed the pin; the level follows the signals again", actor);
        refresh();
    }

    private void tick() {
        try {
            evaluate();
            refresh();
        } catch (RuntimeException e) {
            log.warn("degradation: evaluation failed, keeping level {}: {}", level(), e.toString());
        }
    }

    /** Reads the signals and updates this instance's automatic proposal. */
    void evaluate() {
        if (!properties.auto()) {
            return;
        }
        DegradationSignals signals = DegradationSignals.IDLE;
        for (DegradationSignalSource source : sources) {
            signals = signals.worst(source.read());
        }
        synchronized (lock) {
            controller.evaluate(signals, clock.millis()).ifPresent(change ->
                log.info("degradation: this instance proposes {} -> {} ({})", change.from(), change.to(), change.reason()));
        }
    }

    /** Re-reads the cluster state (pin, proposals) and publishes the effective level. */
    void refresh() {
        DegradationLevel own;
        synchronized (lock) {
            own = controller.level();
        }
        DegradationState.Pin pin = state.pinned();
        DegradationLevel automatic = own;
        boolean fromRedis = true;
        try {
            long now = clock.millis();
            RMap<String, String> proposals = proposals();
            proposals.fastPut(instanceId, own.name() + "|" + now);
            for (Map.Entry<String, String> entry : proposals.readAllEntrySet()) {
                String[] parts = entry.getValue().split("\\|", 2);
                long at = parts.length == 2 ? Long.parseLong(parts[1]) : 0;
                if (now - at > properties.proposalTtl().toMillis()) {
                    proposals.fastRemove(entry.getKey());
                } else {
                    automatic = DegradationLevel.worst(automatic, DegradationLevel.valueOf(parts[0]));
                }
            }
            // the pin and the threshold overrides in one round trip (MGET)
            Map<String, String> settings = redisson.getBuckets(StringCodec.INSTANCE).get(pinKey(), thresholdsKey());
            pin = parsePin(settings.get(pinKey())).orElse(null);
            applyCacheThresholds(settings.get(thresholdsKey()));
        } catch (RuntimeException e) {
            fromRedis = false;
            log.debug("degradation: Redis unavailable, using the last known pin and this instance's signals", e);
        }
        publish(automatic, pin, fromRedis);
    }

    private void publish(DegradationLevel automatic, DegradationState.Pin pin, boolean fromRedis) {
        synchronized (lock) {
            DegradationState before = state;
            DegradationLevel effective = pin != null ? pin.level() : automatic;
            String reason = pin != null ? "pinned by " + pin.actor() + (pin.reason().isEmpty() ? "" : ": " + pin.reason())
                : effective == DegradationLevel.L0 ? "signals healthy" : "signals call for " + effective
                + (fromRedis ? "" : " (Redis unavailable: local view)");
            boolean changed = effective != before.effective();
            state = new DegradationState(effective, automatic, pin, changed ? reason : before.reason(),
                changed ? Instant.now(clock) : before.since());
            if (changed) {
                log.warn("degradation: level {} -> {} ({})", before.effective(), effective, reason);
                Counter.builder("sluice.degradation.changes")
                    .description("changes of the effective degradation level")
                    .tag("from", before.effective().name())
                    .tag("to", effective.name())
                    .tag("cause", pin != null ? "pin" : "signals")
                    .register(meters)
                    .increment();
            }
        }
    }

    static Optional<DegradationState.Pin> parsePin(String raw) {
        if (raw == null || raw.isBlank()) {
            return Optional.empty();
        }
        String[] parts = raw.split("\\|", 3);
        try {
            return Optional.of(new DegradationState.Pin(DegradationLevel.valueOf(parts[0]),
                parts.length > 1 ? parts[1] : "unknown", parts.length > 2 ? parts[2] : ""));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private void applyCacheThresholds(String raw) {
        Map<DegradationLevel, Double> thresholds = parseThresholds(raw);
        if (!thresholds.equals(policy.cacheThresholdOverrides())) {
            try {
                policy.overrideCacheThresholds(thresholds);
                log.info("degradation: cache thresholds now {}", thresholds.isEmpty() ? "as configured" : thresholds);
            } catch (IllegalArgumentException e) {
                log.warn("degradation: ignored invalid cache thresholds from Redis '{}': {}", raw, e.getMessage());
            }
        }
    }

    /** "0.92,0.9,0.87,0.85" (L0..L3) as a map; empty when unset or unreadable. */
    static Map<DegradationLevel, Double> parseThresholds(String raw) {
        if (raw == null || raw.isBlank()) {
            return Map.of();
        }
        String[] parts = raw.split(",");
        DegradationLevel[] levels = DegradationLevel.values();
        if (parts.length != levels.length) {
            return Map.of();
        }
        Map<DegradationLevel, Double> thresholds = new java.util.EnumMap<>(DegradationLevel.class);
        try {
            for (int i = 0; i < levels.length; i++) {
                thresholds.put(levels[i], Double.parseDouble(parts[i].strip()));
            }
        } catch (NumberFormatException e) {
            return Map.of();
        }
        return thresholds;
    }

    private String thresholdsKey() {
        return properties.keyPrefix() + "cache-thresholds";
    }

    private String pinKey() {
        return properties.keyPrefix() + "pin";
    }

    private RBucket<String> thresholdsBucket() {
        return redisson.getBucket(thresholdsKey(), StringCodec.INSTANCE);
    }

    private RBucket<String> pinBucket() {
        return redisson.getBucket(pinKey(), StringCodec.INSTANCE);
    }

    private RMap<String, String> proposals() {
        return redisson.getMap(properties.keyPrefix() + "proposals", StringCodec.INSTANCE);
    }
}
