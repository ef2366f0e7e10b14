package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.breaker.ConsecutiveFailureBreaker;
import io.sluice.governance.budget.RetryBudget;
import io.sluice.governance.budget.RetryPolicy;
import io.sluice.governance.cluster.ClusterMembers;
import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitProperties;
import io.sluice.governance.provider.ProviderClient;
import io.sluice.governance.provider.SpringAiProviderClient;
import io.sluice.governance.route.ModelRoutes;
import io.sluice.governance.sentinel.LaneRules;
import io.sluice.governance.sentinel.SentinelGate;
import io.sluice.governance.sentinel.SentinelRules;
import io.sluice.governance.tpm.ProviderRateLimits;

import org.redisson.api.RedissonClient;

/**
 * Builds one gateway instance's object graph from configuration: validates routes (cycles, unknown
 * models) first, so a bad configuration fails at start-up. Spring uses it ({@link GatewayConfiguration});
 * so do tests and the benchmark that need two independent instances sharing one Redis.
 */
public final class GatewayAssembly implements AutoCloseable {

    private final LlmGateway gateway;
    private final ClusterPermits permits;
    private final ProviderRateLimits rateLimits;
    private final SentinelRules sentinelRules;
    private final ClusterMembers members;
    private final ProviderClient provider;
    private final RetryBudget retryBudget;

    private GatewayAssembly(LlmGateway gateway, ClusterPermits permits, ProviderRateLimits rateLimits,
            SentinelRules sentinelRules, ClusterMembers members, ProviderClient provider, RetryBudget retryBudget) {
        this.retryBudget = retryBudget;
        this.gateway = gateway;
        this.permits = permits;
        this.rateLimits = rateLimits;
        this.sentinelRules = sentinelRules;
        this.members = members;
        this.provider = provider;
    }

    /** Validates the model routes of the configuration (also when no provider is configured). */
    public static ModelRoutes routes(GatewayProperties properties) {
        Map<String, ModelRoutes.Model> models = new LinkedHashMap<>();
        properties.models().forEach((key, m) -> models.put(key, new ModelRoutes.Model(m.name(), m.fallback())));
        ModelRoutes routes = ModelRoutes.of(models);
        for (Lane lane : Lane.values()) {
            String route = properties.lane(lane).route();
            if (!routes.contains(route)) {
                throw new ModelRoutes.InvalidRouteException("lane '" + lane.key() + "' routes to unknown model '" + route
                    + "'; configured: " + models.keySet());
            }
        }
        return routes;
    }

    /** Assembles a gateway talking to the configured provider through Spring AI. */
    public static GatewayAssembly assemble(GatewayProperties properties, PermitProperties permitProperties,
            RedissonClient redisson, MeterRegistry registry) {
        return assemble(properties, permitProperties, redisson, registry,
            properties.providerConfigured() ? new SpringAiProviderClient(properties.baseUrl(), properties.apiKey()) : null);
    }

    /** Assembles a gateway over the given provider client (null = no provider: the disabled gateway). */
    public static GatewayAssembly assemble(GatewayProperties properties, PermitProperties permitProperties,
            RedissonClient redisson, MeterRegistry registry, ProviderClient provider) {
        ModelRoutes routes = routes(properties);
        RedisGuard guard = new RedisGuard(properties.redisRecheck());
        ClusterMembers members = new ClusterMembers(redisson, properties.keyPrefix(), guard, properties.heartbeat());
        ClusterPermits permits = new ClusterPermits(redisson, permitProperties, guard, members::known);
        if (provider == null) {
            return new GatewayAssembly(new DisabledLlmGateway(), permits, null, null, members, null, null);
        }
        ProviderRateLimits rateLimits = new ProviderRateLimits(redisson, properties.keyPrefix(), guard, members::known,
            properties.tpm().limit(), properties.tpm().window());
        RetryBudget retryBudget = new RetryBudget(redisson, properties.keyPrefix(), guard, properties.retryBudget().ratio(),
            properties.retryBudget().minRetries(), properties.retryBudget().window());
        Map<Lane, LanePolicy> lanes = new EnumMap<>(Lane.class);
        Map<Lane, Set<String>> modelsPerLane = new EnumMap<>(Lane.class);
        Map<Lane, LaneRules> rules = new EnumMap<>(Lane.class);
        for (Lane lane : Lane.values()) {
            GatewayProperties.LaneConfig config = properties.lane(lane);
            Duration permitWait = permitProperties.lane(lane.key()).maxWait();
            Duration lease = permitProperties.lane(lane.key()).lease();
            if (lease.compareTo(config.budget()) < 0) {
                throw new IllegalArgumentException("lane '" + lane.key() + "': the permit lease (" + lease
                    + ") is shorter than the call budget (" + config.budget() + "): permits would expire mid-call");
            }
            ConsecutiveFailureBreaker breaker = config.breaker() == null ? null
                : new ConsecutiveFailureBreaker(lane.key() + " lane breaker", config.breaker().failures(),
                    config.breaker().openFor());
            lanes.put(lane, new LanePolicy(lane, config.route(), config.budget(),
                new RetryPolicy(config.retries(), config.backoff()), permitWait, config.rateLimitWait(), breaker));
            // any configured model may be asked for on any lane (LlmRequest.route)
            modelsPerLane.put(lane, new LinkedHashSet<>(routes.models().keySet()));
            GatewayProperties.Sentinel s = config.sentinel();
            rules.put(lane, new LaneRules(s.maxThreads(), s.qps(), s.slowCall(), s.slowRatio(), s.errorRatio(),
                s.minRequests(), s.statInterval(), s.openFor()));
        }
        SentinelRules sentinelRules = new SentinelRules(redisson, properties.keyPrefix(), guard, modelsPerLane, rules);
        GovernedLlmGateway gateway = new GovernedLlmGateway(provider, routes, lanes, permits, rateLimits, retryBudget,
            new SentinelGate(), new GatewayMetrics(registry));
        return new GatewayAssembly(gateway, permits, rateLimits, sentinelRules, members, provider, retryBudget);
    }

    public LlmGateway gateway() {
        return gateway;
    }

    public ClusterPermits permits() {
        return permits;
    }

    /** The shared rate limits (null when no provider is configured). */
    public ProviderRateLimits rateLimits() {
        return rateLimits;
    }

    /** The runtime-replaceable Sentinel rules (null when no provider is configured). */
    public SentinelRules sentinelRules() {
        return sentinelRules;
    }

    public ClusterMembers members() {
        return members;
    }

    @Override
    public void close() {
        if (gateway instanceof GovernedLlmGateway governed) {
            governed.close();
        }
        if (sentinelRules != null) {
            sentinelRules.close();
        }
        if (provider != null) {
            provider.close();
        }
        if (retryBudget != null) {
            retryBudget.close();
        }
        members.close();
    }
}
