package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.permit.PermitProperties;
import io.sluice.governance.provider.OpenAiCompatibleClient;
import io.sluice.mock.MockProvider;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Test support: gateway instances (each its own Redisson client and object graph) sharing one Redis
 * and one mock provider. Keys and Sentinel resources are unique per fixture so tests do not collide.
 */
final class GatewayFixture implements AutoCloseable {

    static final String PRIMARY_MODEL = "gpt-primary";
    static final String LIGHT_MODEL = "gpt-light";

    /** The shared test Redis, from SLUICE_REDIS_URL (CI sets it; locally see scripts/services-up.sh). */
    static String redisUrl() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: gateway tests need a real Redis "
                + "(e.g. export SLUICE_REDIS_URL=redis://127.0.0.1:56379/1, or eval \"$(bash scripts/services-up.sh)\")");
        }
        return url;
    }

    static {
        warmUp();
    }

    /**
     * The first call through Spring AI and the OpenAI SDK loads thousands of classes (seconds on a busy
     * CI machine); tests with sub-second budgets must not pay that, so the JVM is warmed up once.
     */
    private static void warmUp() {
        try (MockProvider warm = MockProvider.start(0);
                OpenAiCompatibleClient client = OpenAiCompatibleClient.of(warm.baseUrl(), "warm-up")) {
            client.call(new io.sluice.governance.provider.ProviderClient.Call("warm-up", List.of(LlmMessage.user("warm up")), 4, null), Duration.ofSeconds(60));
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            client.stream(new io.sluice.governance.provider.ProviderClient.Call("warm-up", List.of(LlmMessage.user("warm up")), 4, null), new io.sluice.governance.provider.ProviderClient.StreamHandler() {
                @Override
                public void onToken(String token) {
                }

                @Override
                public void onComplete(int promptTokens, int completionTokens, String finishReason) {
                    done.countDown();
                }

                @Override
                public void onError(io.sluice.governance.provider.ProviderResult failure) {
                    done.countDown();
                }
            });
            done.await(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        io.sluice.governance.sentinel.SentinelGate gate = new io.sluice.governance.sentinel.SentinelGate();
        if (gate.enter(Lane.BATCH, "warm-up") instanceof io.sluice.governance.sentinel.SentinelGate.Decision.Pass pass) {
            pass.success();
        }
    }

    static RedissonClient redisson(String url) {
        return redisson(url, 1000);
    }

    static RedissonClient redisson(String url, int timeoutMillis) {
        // single, Sentinel or Cluster, as the environment deploys SLUICE_REDIS_URL (scripts/test.sh topology runs)
        io.sluice.governance.cluster.RedisTopology topology = io.sluice.governance.cluster.RedisTopology.ofUrl(url);
        Config config = topology.toConfig(5000, timeoutMillis, 0);
        if (topology.mode() == io.sluice.governance.cluster.RedisTopology.Mode.SINGLE) {
            config.useSingleServer()
                .setConnectionMinimumIdleSize(2)
                .setConnectionPoolSize(32)
                .setSubscriptionConnectionMinimumIdleSize(1);
        }
        return Redisson.create(config);
    }

    /** Per-lane settings; defaults are generous so each test tightens only what it exercises. */
    static final class LaneSettings {
        int permits = 8;
        Duration maxWait = Duration.ofSeconds(2);
        Duration lease = Duration.ofSeconds(30);
        Duration budget = Duration.ofSeconds(5);
        int retries = 1;
        List<Duration> backoff = List.of();
        Duration rateLimitWait = Duration.ZERO;
        Integer breakerFailures;
        Duration breakerOpenFor = Duration.ofSeconds(60);
        int maxThreads = 512;
        double qps;
        double errorRatio;
        int minRequests = 100;
        Duration openFor = Duration.ofSeconds(1);
        String route;
    }

    final String suffix = UUID.randomUUID().toString().substring(0, 8);
    final String keyPrefix = "test:gw:" + suffix + ":";
    final String primary = "primary-" + suffix;
    final String light = "light-" + suffix;
    final MockProvider mock = MockProvider.start(0);
    final Map<Lane, LaneSettings> lanes = new EnumMap<>(Lane.class);
    String redisUrl = redisUrl();
    boolean primaryFallsBackToLight;
    long tpmLimit;
    Duration tpmWindow = Duration.ofMinutes(1);
    double retryRatio = 1.0;
    int minRetries = 1000;
    Duration redisRecheck = Duration.ofMillis(500);
    Duration heartbeat = Duration.ofMillis(200);
    /** Permit reuse (sluice.permits.reuse-window / idle-share); off unless a test turns it on. */
    Duration permitReuseWindow = Duration.ZERO;
    double permitIdleShare;
    Duration permitIdleLinger = Duration.ofSeconds(1);
    private final List<AutoCloseable> closeables = new ArrayList<>();

    GatewayFixture() {
        for (Lane lane : Lane.values()) {
            LaneSettings settings = new LaneSettings();
            settings.route = lane == Lane.INTENT ? light : primary;
            lanes.put(lane, settings);
        }
    }

    LaneSettings lane(Lane lane) {
        return lanes.get(lane);
    }

    GatewayProperties properties(String baseUrl) {
        Map<String, GatewayProperties.Model> models = new LinkedHashMap<>();
        models.put(primary, new GatewayProperties.Model(PRIMARY_MODEL, primaryFallsBackToLight ? light : null));
        models.put(light, new GatewayProperties.Model(LIGHT_MODEL, null));
        Map<String, GatewayProperties.LaneConfig> laneConfigs = new LinkedHashMap<>();
        lanes.forEach((lane, s) -> laneConfigs.put(lane.key(), new GatewayProperties.LaneConfig(s.route, s.budget, s.retries,
            s.backoff, s.rateLimitWait,
            s.breakerFailures == null ? null : new GatewayProperties.Breaker(s.breakerFailures, s.breakerOpenFor),
            new GatewayProperties.Sentinel(s.maxThreads, s.qps, Duration.ofSeconds(30), 0, s.errorRatio, s.minRequests,
                Duration.ofSeconds(10), s.openFor))));
        return new GatewayProperties(baseUrl, "test-key", keyPrefix, models, laneConfigs,
            new GatewayProperties.Tpm(tpmLimit, tpmWindow), new GatewayProperties.RetryBudget(retryRatio, minRetries,
                Duration.ofSeconds(10)), redisRecheck, heartbeat);
    }

    PermitProperties permitProperties() {
        Map<String, PermitProperties.Lane> permitLanes = new LinkedHashMap<>();
        lanes.forEach((lane, s) -> permitLanes.put(lane.key(), new PermitProperties.Lane(s.permits, s.maxWait, s.lease)));
        return new PermitProperties(keyPrefix + "permits:", permitLanes, permitReuseWindow, permitIdleShare, permitIdleLinger);
    }

    /** One more gateway instance: its own Redisson client, provider client and object graph. */
    Instance instance() {
        RedissonClient redisson = redisson(redisUrl);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        GatewayAssembly assembly = GatewayAssembly.assemble(properties(mock.baseUrl()), permitProperties(), redisson,
            registry, OpenAiCompatibleClient.of(mock.baseUrl(), "test-key"));
        Instance instance = new Instance(redisson, assembly, registry);
        closeables.add(instance);
        return instance;
    }

    record Instance(RedissonClient redisson, GatewayAssembly assembly, SimpleMeterRegistry registry) implements AutoCloseable {
        LlmGateway gateway() {
            return assembly.gateway();
        }

        GovernedLlmGateway governed() {
            return (GovernedLlmGateway) assembly.gateway();
        }

        /** Simulates a crash: the Redis connection goes away without releasing anything. */
        void kill() {
            redisson.shutdown(0, 1, java.util.concurrent.TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            try {
                assembly.close();
            } catch (RuntimeException ignored) {
                // a killed instance cannot clean up, which is the point
            }
            if (!redisson.isShutdown()) {
                redisson.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
    }

    static LlmRequest ask(Lane lane, String text, int maxTokens) {
        return LlmRequest.of(lane, maxTokens, LlmMessage.user(text));
    }

    @Override
    public void close() {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort
            }
        }
        mock.close();
    }
}
