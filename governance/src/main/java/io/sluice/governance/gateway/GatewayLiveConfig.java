package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.cluster.SharedSetting;
import io.sluice.governance.provider.ProviderPool;
import io.sluice.governance.provider.ProviderSettings;
import io.sluice.governance.route.ModelRoutes;

import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Providers' limits and routes' targets changed while the cluster runs (the console and the admin API).
 * The same pattern as {@code SentinelRules#replace}: a change is validated as at start-up (unknown
 * providers, fallback cycles, a route left without a weighted target), applied here, stored in Redis
 * (instances that start later read it) and announced on a Redis topic (running instances apply it).
 * A refused change throws and leaves the previous state in place. Only what differs from application.yml
 * is stored; {@link #resetToConfigured()} goes back to it.
 */
public final class GatewayLiveConfig implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GatewayLiveConfig.class);
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** A provider's live settings (timeouts and the TPM window stay as configured). */
    public record ProviderChange(int permits, long rpm, long tpm, int breakerFailures, Duration breakerOpenFor,
            long shiftBelowRequests, long shiftBelowTokens, boolean enabled) {

        static ProviderChange of(ProviderSettings s, boolean enabled) {
            return new ProviderChange(s.permits(), s.rpm(), s.tpm(), s.breakerFailures(), s.breakerOpenFor(),
                s.shiftBelowRequests(), s.shiftBelowTokens(), enabled);
        }

        ProviderSettings settings(ProviderSettings configured) {
            if (breakerFailures < 1) {
                throw new IllegalArgumentException("breaker failures must be at least 1, was " + breakerFailures);
            }
            if (breakerOpenFor == null || breakerOpenFor.isNegative() || breakerOpenFor.isZero()) {
                throw new IllegalArgumentException("breaker open-for must be positive");
            }
            return new ProviderSettings(permits, rpm, tpm, configured.tpmWindow(), configured.timeout(), breakerFailures,
                breakerOpenFor, shiftBelowRequests, shiftBelowTokens);
        }
    }

    /** A route's live targets and fallback (null or blank fallback = end of the chain). */
    public record RouteChange(List<ModelRoutes.Target> targets, String fallback) {
        public RouteChange {
            targets = targets == null ? List.of() : List.copyOf(targets);
            fallback = fallback == null || fallback.isBlank() ? null : fallback.strip();
        }
    }

    /** What differs from the configuration, as stored in Redis. */
    public record Overrides(Map<String, ProviderChange> providers, Map<String, RouteChange> routes) {
        public Overrides {
            providers = providers == null ? Map.of() : Map.copyOf(providers);
            routes = routes == null ? Map.of() : Map.copyOf(routes);
        }

        static final Overrides NONE = new Overrides(Map.of(), Map.of());
    }

    private final GovernedLlmGateway gateway;
    private final ProviderPool pool;
    private final ModelRoutes configuredRoutes;
    private final String defaultProvider;
    private final SharedSetting shared;
    private final MeterRegistry registry;
    private final Counter ignored;
    private volatile Overrides current = Overrides.NONE;

    GatewayLiveConfig(GovernedLlmGateway gateway, RedissonClient redisson, String keyPrefix, RedisGuard guard,
            MeterRegistry registry) {
        this.gateway = gateway;
        this.pool = gateway.providers();
        this.configuredRoutes = gateway.routes();
        this.defaultProvider = pool.members().iterator().next().name();
        this.registry = registry;
        this.ignored = Counter.builder("sluice.gateway.config.ignored")
            .description("live gateway settings from the cluster that could not be applied").register(registry);
        for (ProviderPool.Member m : pool.members()) {
            Gauge.builder("sluice.gateway.provider.enabled", m, x -> x.enabled() ? 1 : 0).tag("provider", m.name())
                .description("0 while an operator has disabled the provider").register(registry);
        }
        this.shared = new SharedSetting(redisson, keyPrefix + "gateway-config", guard, json -> {
            try {
                apply(json.isEmpty() ? Overrides.NONE : JSON.readValue(json, Overrides.class), false);
                changed("cluster");
            } catch (RuntimeException e) {
                ignored.increment();
                log.warn("ignored live gateway settings from the cluster: {}", e.getMessage());
            }
        });
        shared.stored().ifPresent(json -> {
            try {
                apply(JSON.readValue(json, Overrides.class), false);
            } catch (RuntimeException e) {
                ignored.increment();
                log.warn("ignored stored live gateway settings: {}", e.getMessage());
            }
        });
    }

    /** What differs from the configuration now. */
    public Overrides overrides() {
        return current;
    }

    /** A provider's settings as they are now (configured, or changed live). */
    public ProviderChange provider(String name) {
        ProviderPool.Member m = pool.get(name);
        return ProviderChange.of(m.settings(), m.enabled());
    }

    /** A route's targets and fallback as they are now. */
    public RouteChange route(String key) {
        ModelRoutes routes = gateway.routes();
        if (!routes.contains(key)) {
            throw new IllegalArgumentException("unknown route '" + key + "'; configured: " + routes.models().keySet());
        }
        return new RouteChange(routes.targets(key), routes.models().get(key).fallback());
    }

    /**
     * Changes one provider cluster-wide.
     *
     * @throws IllegalArgumentException naming what is wrong; nothing changes then
     */
    public synchronized void setProvider(String name, ProviderChange change) {
        pool.get(name);
        Map<String, ProviderChange> providers = new LinkedHashMap<>(current.providers());
        providers.put(name, change);
        replace(new Overrides(providers, current.routes()));
    }

    /**
     * Changes one route's targets (and fallback) cluster-wide.
     *
     * @throws IllegalArgumentException naming what is wrong; nothing changes then
     */
    public synchronized void setRoute(String key, RouteChange change) {
        route(key);
        Map<String, RouteChange> routes = new LinkedHashMap<>(current.routes());
        routes.put(key, change);
        replace(new Overrides(current.providers(), routes));
    }

    /** Back to application.yml, cluster-wide. */
    public synchronized void resetToConfigured() {
        apply(Overrides.NONE, true);
        shared.publish(null);
        changed("reset");
    }

    private void replace(Overrides next) {
        apply(next, true);
        shared.publish(JSON.writeValueAsString(next));
        changed("local");
    }

    /** Validates everything first, then applies: a refused set changes nothing. */
    private synchronized void apply(Overrides next, boolean resizePermits) {
        Map<String, ProviderSettings> settings = new LinkedHashMap<>();
        Map<String, Boolean> enabled = new LinkedHashMap<>();
        for (ProviderPool.Member m : pool.members()) {
            ProviderSettings configured = pool.configured(m.name());
            ProviderChange change = next.providers().get(m.name());
            settings.put(m.name(), change == null ? configured : change.settings(configured));
            enabled.put(m.name(), change == null || change.enabled());
        }
        for (String name : next.providers().keySet()) {
            pool.get(name); // unknown provider → refused
        }
        ModelRoutes routes = routes(next.routes());
        for (String key : routes.models().keySet()) {
            boolean served = routes.targets(key).stream().anyMatch(t -> t.weight() > 0 && enabled.get(t.provider()));
            if (!served) {
                throw new ModelRoutes.InvalidRouteException("route '" + key
                    + "' would have no enabled target with a positive weight");
            }
        }
        settings.forEach((name, s) -> pool.reconfigure(name, s, enabled.get(name), resizePermits));
        gateway.routes(routes);
        current = next;
    }

    private ModelRoutes routes(Map<String, RouteChange> changes) {
        Map<String, ModelRoutes.Model> models = new LinkedHashMap<>();
        configuredRoutes.models().forEach((key, m) -> {
            RouteChange change = changes.get(key);
            models.put(key, change == null ? m : new ModelRoutes.Model(m.name(), change.fallback(), change.targets(), m.aliases()));
        });
        for (String key : changes.keySet()) {
            if (!models.containsKey(key)) {
                throw new ModelRoutes.InvalidRouteException("unknown route '" + key + "'; configured: " + models.keySet());
            }
            if (changes.get(key).targets().isEmpty()) {
                throw new ModelRoutes.InvalidRouteException("route '" + key + "' needs at least one target");
            }
        }
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        pool.members().forEach(m -> names.add(m.name()));
        return ModelRoutes.of(models, defaultProvider, names);
    }

    private void changed(String source) {
        Counter.builder("sluice.gateway.config.changes").tag("source", source)
            .description("live changes of providers and routes applied on this instance").register(registry).increment();
    }

    @Override
    public void close() {
        shared.close();
    }
}
