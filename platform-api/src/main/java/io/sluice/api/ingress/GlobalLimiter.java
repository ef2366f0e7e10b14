package io.sluice.api.ingress;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import io.sluice.governance.cluster.ClusterGlobalRate;
import io.sluice.governance.periodic.PeriodicTask;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The adaptive global limiter: a token bucket (burst = one second) whose rate follows {@link AdaptiveRate},
 * re-evaluated every tick from signals of online overload — the {@link LoadMonitor} (p95 latency and errors of
 * online answers), requests queued for admission, and CPU only together with slow answers (background work
 * yields; it does not make online traffic pay). With a {@link ClusterGlobalRate} the bucket is one for the
 * whole cluster in Redis (N instances admit the rate, not N× it) and, with Redis down, each instance keeps
 * to its share (rate ÷ live instances); without one it is local to this instance.
 *
 * <p>Each API client also has a share of it ({@link RateLimitProperties.ClientShare}): while n clients are
 * active, one may take at most max(rate / n, floor) per second (its own bucket, burst one second), so a
 * client spreading requests over many userIds cannot starve the others. The public shape is one call,
 * {@link #admit(String)} (client key in, decision out), so the state can move to Redis unchanged.
 * Gauges {@code sluice.ingress.global.rate}, {@code sluice.ingress.global.active-clients}.
 */
public class GlobalLimiter implements SmartLifecycle, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GlobalLimiter.class);

    private final AdaptiveRate adaptive;
    private final LoadMonitor monitor;
    private final RateLimitProperties.Global properties;
    private volatile double rate;
    private double tokens;
    private long lastNanos = System.nanoTime();
    private final PeriodicTask ticks;
    private final RateLimitProperties.ClientShare share;
    private final java.util.Map<String, ClientBucket> clients = new java.util.HashMap<>();
    private final java.util.function.IntSupplier queued;
    private final ClusterGlobalRate cluster;
    private volatile double ownRate;

    /** One admission decision: admitted, or refused for the client's share or the platform, with the wait. */
    public record Decision(boolean admitted, RateLimitedException.Scope scope, Duration retryAfter) {
        static final Decision ADMITTED = new Decision(true, null, Duration.ZERO);
    }

    private static final class ClientBucket {
        double tokens;
        long lastNanos;
        long seenNanos;
    }

    public GlobalLimiter(RateLimitProperties.Global properties, LoadMonitor monitor, MeterRegistry meters) {
        this(properties, new RateLimitProperties.ClientShare(5, Duration.ofSeconds(5)), monitor, meters);
    }

    public GlobalLimiter(RateLimitProperties.Global properties, RateLimitProperties.ClientShare share, LoadMonitor monitor,
            MeterRegistry meters) {
        this(properties, share, monitor, () -> 0, null, meters);
    }

    /**
     * @param queued  online requests waiting for admission now (a signal of overload)
     * @param cluster the cluster-wide bucket in Redis; null = this instance's own bucket
     */
    public GlobalLimiter(RateLimitProperties.Global properties, RateLimitProperties.ClientShare share, LoadMonitor monitor,
            java.util.function.IntSupplier queued, ClusterGlobalRate cluster, MeterRegistry meters) {
        this.queued = queued;
        this.cluster = cluster;
        this.properties = properties;
        this.share = share;
        this.adaptive = new AdaptiveRate(properties);
        this.monitor = monitor;
        this.rate = adaptive.rate();
        this.tokens = rate;
        this.ticks = new PeriodicTask("sluice-global-limiter", properties.tick(), this::tick);
        this.ownRate = rate;
        Gauge.builder("sluice.ingress.global.rate", this, GlobalLimiter::rate)
            .description("requests/s the platform currently admits (adaptive; cluster-wide when shared in Redis)")
            .register(meters);
        Gauge.builder("sluice.ingress.global.own-rate", this, l -> l.ownRate)
            .description("the adaptive rate this instance's own signals ask for (the cluster uses the live instances' mean)")
            .register(meters);
        Gauge.builder("sluice.ingress.global.instances", this, l -> l.cluster == null ? 1 : l.cluster.liveInstances())
            .description("instances sharing the global rate (its share when Redis is down: rate / instances)")
            .register(meters);
        Gauge.builder("sluice.ingress.global.active-clients", this, GlobalLimiter::activeClients)
            .description("API clients that made a request within the share window (each gets rate / n, at least the floor)")
            .register(meters);
    }

    @Override
    public void start() {
        ticks.start();
    }

    @Override
    public void stop() {
        ticks.stop();
    }

    @Override
    public boolean isRunning() {
        return ticks.isRunning();
    }

    @Override
    public void close() {
        stop();
    }

    public double rate() {
        return rate;
    }

    void tick() {
        synchronized (this) {
            prune(System.nanoTime());
        }
        try {
            LoadMonitor.Snapshot load = monitor.snapshot();
            double before = rate;
            ownRate = adaptive.adjust(new AdaptiveRate.Signals(load.p95LatencyMs(), load.errorRatio(), cpuLoad(),
                load.samples(), queued.getAsInt()));
            rate = cluster == null ? ownRate : cluster.publish(ownRate);
            if (rate < before * 0.999) {
                log.info("ingress: global rate {} -> {} req/s (p95 {} ms, errors {})", Math.round(before),
                    Math.round(rate), Math.round(load.p95LatencyMs()), load.errorRatio());
            }
        } catch (RuntimeException e) {
            log.warn("ingress: global limiter tick failed: {}", e.toString());
        }
    }

    /** Takes one admission outside any client's share (internal callers); zero = admitted, else the wait. */
    public Duration tryAcquire() {
        return tryAcquire("");
    }

    /** {@link #admit} reduced to the wait: zero = admitted. */
    public Duration tryAcquire(String client) {
        return admit(client).retryAfter();
    }

    /**
     * Takes one admission for {@code client} (its id; blank = no share): first the client's share, then the
     * platform's bucket; a refusal takes nothing from either.
     */
    public Decision admit(String client) {
        if (cluster == null) {
            return admitLocally(client);
        }
        // the client's share is this instance's (its share of the cluster rate); the platform's bucket is shared.
        // The Redis round trip runs outside the lock, so admissions on this instance do not queue behind it.
        ClientBucket own;
        synchronized (this) {
            own = client == null || client.isBlank() ? null : clientBucket(client, System.nanoTime());
            Decision refused = own == null ? null : checkShare(own, rate / cluster.liveInstances(), System.nanoTime());
            if (refused != null) {
                return refused;
            }
        }
        Duration wait = cluster.take(rate);
        if (!wait.isZero()) {
            return new Decision(false, RateLimitedException.Scope.GLOBAL, wait);
        }
        if (own != null) {
            synchronized (this) {
                own.tokens -= 1;
            }
        }
        return Decision.ADMITTED;
    }

    private Decision checkShare(ClientBucket own, double current, long now) {
        double allowed = Math.max(current / Math.max(1, countActive(now)), share.floor());
        own.tokens = Math.min(allowed, own.tokens + (now - own.lastNanos) / 1e9 * allowed);
        own.lastNanos = now;
        if (own.tokens < 1) {
            return new Decision(false, RateLimitedException.Scope.CLIENT,
                Duration.ofMillis((long) Math.ceil((1 - own.tokens) / allowed * 1000)));
        }
        return null;
    }

    private synchronized Decision admitLocally(String client) {
        long now = System.nanoTime();
        double current = rate;
        tokens = Math.min(current, tokens + (now - lastNanos) / 1e9 * current);
        lastNanos = now;
        ClientBucket own = client == null || client.isBlank() ? null : clientBucket(client, now);
        if (own != null) {
            Decision refused = checkShare(own, current, now);
            if (refused != null) {
                return refused;
            }
        }
        if (tokens < 1) {
            return new Decision(false, RateLimitedException.Scope.GLOBAL,
                Duration.ofMillis((long) Math.ceil((1 - tokens) / current * 1000)));
        }
        tokens -= 1;
        if (own != null) {
            own.tokens -= 1;
        }
        return Decision.ADMITTED;
    }

    private ClientBucket clientBucket(String client, long now) {
        ClientBucket bucket = clients.get(client);
        if (bucket == null) {
            if (clients.size() > 100_000) {
                prune(now);
            }
            bucket = new ClientBucket();
            double fair = Math.max(rate / (countActive(now) + 1), share.floor());
            bucket.tokens = fair;
            bucket.lastNanos = now;
            clients.put(client, bucket);
        }
        bucket.seenNanos = now;
        return bucket;
    }

    private int countActive(long now) {
        long window = share.window().toNanos();
        int active = 0;
        for (ClientBucket bucket : clients.values()) {
            if (now - bucket.seenNanos <= window) {
                active++;
            }
        }
        return active;
    }

    private void prune(long now) {
        long window = share.window().toNanos();
        clients.values().removeIf(bucket -> now - bucket.seenNanos > window);
    }

    /** Clients that asked within the share window. */
    public synchronized int activeClients() {
        long now = System.nanoTime();
        prune(now);
        return clients.size();
    }

    private static double cpuLoad() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            double load = os.getProcessCpuLoad();
            return load < 0 ? 0 : load;
        }
        return 0;
    }
}
