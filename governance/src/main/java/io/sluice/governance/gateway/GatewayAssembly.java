package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
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
import io.sluice.governance.provider.LlmProperties;
import io.sluice.governance.provider.OpenAiCompatibleClient;
import io.sluice.governance.provider.ProviderEndpoint;
import io.sluice.governance.provider.ProviderKind;
import io.sluice.governance.provider.ProviderPool;
import io.sluice.governance.provider.ProviderSettings;
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
    private final ProviderPool provider;
    private final RetryBudget retryBudget;
    private final GatewayLiveConfig liveConfig;

    private GatewayAssembly(LlmGateway gateway, ClusterPermits permits, ProviderRateLimits rateLimits,
            SentinelRules sentinelRules, ClusterMembers members, ProviderPool provider, RetryBudget retryBudget,
            GatewayLiveConfig liveConfig) {
        this.retryBudget = retryBudget;
        this.liveConfig = liveConfig;
        this.gateway = gateway;
        this.permits = permits;
        this.rateLimits = rateLimits;
        this.sentinelRules = sentinelRules;
        this.members = members;
        this.provider = provider;
    }

    /** Validates the model routes of the configuration (also when no provider is configured). */
    public static ModelRoutes routes(GatewayProperties properties) {
        return routes(properties, ModelRoutes.DEFAULT_PROVIDER, null);
    }

    /** Validates routes against the configured providers (unknown providers, cycles, unknown models). */
    public static ModelRoutes routes(GatewayProperties properties, String defaultProvider, Set<String> providers) {
        Map<String, ModelRoutes.Model> models = new LinkedHashMap<>();
        properties.models().forEach((key, m) -> models.put(key, new ModelRoutes.Model(m.name(), m.fallback(),
            m.targets().stream().map(t -> new ModelRoutes.Target(t.provider(), t.model(), t.weight())).toList(),
            m.aliases())));
        ModelRoutes routes = ModelRoutes.of(models, defaultProvider, providers);
        for (Lane lane : Lane.values()) {
            String route = properties.lane(lane).route();
            if (!routes.contains(route)) {
                throw new ModelRoutes.InvalidRouteException("lane '" + lane.key() + "' routes to unknown model '" + route
                    + "'; configured: " + models.keySet());
            }
        }
        return routes;
    }

    /** Assembles a gateway over the configured providers ({@code sluice.llm.providers}, or the short form). */
    public static GatewayAssembly assemble(GatewayProperties properties, LlmProperties llm, PermitProperties permitProperties,
            RedissonClient redisson, MeterRegistry registry) {
        List<ProviderPool.Spec> specs = new ArrayList<>();
        for (LlmProperties.Provider p : llm.providers()) {
            ProviderEndpoint endpoint = p.endpoint();
            specs.add(new ProviderPool.Spec(endpoint, new OpenAiCompatibleClient(endpoint), p.settings()));
        }
        if (specs.isEmpty() && properties.providerConfigured()) {
            return assemble(properties, permitProperties, redisson, registry,
                OpenAiCompatibleClient.of(properties.baseUrl(), properties.apiKey()));
        }
        return assemble(properties, permitProperties, redisson, registry, specs);
    }

    /** Assembles a gateway talking to the short form's one provider ({@code sluice.gateway.base-url}). */
    public static GatewayAssembly assemble(GatewayProperties properties, PermitProperties permitProperties,
            RedissonClient redisson, MeterRegistry registry) {
        return assemble(properties, new LlmProperties(null, List.of()), permitProperties, redisson, registry);
    }

    /**
     * Assembles a gateway over one given provider client, named {@code default} (null = no provider: the
     * disabled gateway). The one-provider form keeps the lane breakers only: no provider breaker.
     */
    public static GatewayAssembly assemble(GatewayProperties properties, PermitProperties permitProperties,
            RedissonClient redisson, MeterRegistry registry, ProviderClient provider) {
        List<ProviderPool.Spec> specs = provider == null ? List.of()
            : List.of(new ProviderPool.Spec(new ProviderEndpoint(ModelRoutes.DEFAULT_PROVIDER, ProviderKind.OPENAI_COMPATIBLE,
                properties.providerConfigured() ? properties.baseUrl() : "http://unused", null, null), provider,
                SHORT_FORM));
        return assemble(properties, permitProperties, redisson, registry, specs);
    }

    /** The short form's provider: no own permits or limits beyond sluice.gateway.tpm, breaker effectively off. */
    static final ProviderSettings SHORT_FORM = new ProviderSettings(0, 0, 0, null, null, Integer.MAX_VALUE, null, 0, 0);

    /** Assembles a gateway over the given providers (empty = no provider: the disabled gateway). */
    public static GatewayAssembly assemble(GatewayProperties properties, PermitProperties permitProperties,
            RedissonClient redisson, MeterRegistry registry, List<ProviderPool.Spec> specs) {
        Set<String> names = new LinkedHashSet<>();
        specs.forEach(spec -> names.add(spec.endpoint().name()));
        ModelRoutes routes = routes(properties, names.isEmpty() ? ModelRoutes.DEFAULT_PROVIDER : names.iterator().next(),
            names.isEmpty() ? null : names);
        RedisGuard guard = new RedisGuard(properties.redisRecheck());
        ClusterMembers members = new ClusterMembers(redisson, properties.keyPrefix(), guard, properties.heartbeat());
        ClusterPermits permits = new ClusterPermits(redisson, permitProperties, guard, members::known);
        if (specs.isEmpty()) {
            return new GatewayAssembly(new DisabledLlmGateway(), permits, null, null, members, null, null, null);
        }
        // the gateway-wide TPM (sluice.gateway.tpm) is the one-provider form's window, on its historical keys
        ProviderRateLimits defaultTokens = specs.size() == 1 && specs.get(0).settings().tpm() == 0
            ? new ProviderRateLimits(redisson, properties.keyPrefix(), guard, members::known, properties.tpm().limit(),
                properties.tpm().window()) : null;
        ProviderPool provider = ProviderPool.of(specs, redisson, properties.keyPrefix(), guard, members::known, defaultTokens);
        ProviderRateLimits rateLimits = provider.members().iterator().next().tokens();
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
        GovernedLlmGateway gateway = new GovernedLlmGateway(provider, routes, lanes, permits, retryBudget,
            new SentinelGate(), new GatewayMetrics(registry));
        GatewayLiveConfig liveConfig = new GatewayLiveConfig(gateway, redisson, properties.keyPrefix(), guard, registry);
        return new GatewayAssembly(gateway, permits, rateLimits, sentinelRules, members, provider, retryBudget, liveConfig);
    }

    public LlmGateway gateway() {
        return gateway;
    }

    /**
     * Turns on the embedding lane: {@code route} must be a configured route and {@code sluice.permits.lanes.embedding}
     * must exist (its permits and wait bound). Refused with a message when either is missing.
     */
    public GatewayAssembly withEmbeddings(String route, Duration budget, PermitProperties permitProperties) {
        if (!(gateway instanceof GovernedLlmGateway governed)) {
            return this;
        }
        PermitProperties.Lane lane = permitProperties.lanes().get(GovernedLlmGateway.EMBEDDING_LANE);
        if (lane == null) {
            throw new IllegalArgumentException("the embedding lane needs sluice.permits.lanes.embedding");
        }
        if (!governed.routes().contains(route)) {
            throw new ModelRoutes.InvalidRouteException("sluice.gateway.embeddings.route: unknown model '" + route + "'");
        }
        governed.embeddingLane(new GovernedLlmGateway.EmbeddingLane(route, budget, lane.maxWait()));
        return this;
    }

    public ClusterPermits permits() {
        return permits;
    }

    /** The shared rate limits (null when no provider is configured). */
    public ProviderRateLimits rateLimits() {
        // the first provider's window as it is now (a live change replaces it)
        return provider == null ? rateLimits : provider.members().iterator().next().tokens();
    }

    /** The runtime-replaceable Sentinel rules (null when no provider is configured). */
    public SentinelRules sentinelRules() {
        return sentinelRules;
    }

    /** Providers' limits and routes' targets changed live, cluster-wide (null when no provider is configured). */
    public GatewayLiveConfig liveConfig() {
        return liveConfig;
    }

    /** The providers (null when none is configured). */
    public ProviderPool providers() {
        return provider;
    }

    /** The routes clients may name (validated at start-up). */
    public ModelRoutes modelRoutes() {
        return gateway instanceof GovernedLlmGateway governed ? governed.routes() : null;
    }

    public ClusterMembers members() {
        return members;
    }

    @Override
    public void close() {
        if (gateway instanceof GovernedLlmGateway governed) {
            governed.close();
        }
        if (liveConfig != null) {
            liveConfig.close();
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
        permits.close();
        members.close();
    }
}
