package io.sluice.bench.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.batch.BatchJobsConfiguration;
import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.jobs.drain.DrainJobConfiguration;
import io.sluice.batch.queue.NewWorkItem;
import io.sluice.batch.queue.WorkQueue;
import io.sluice.batch.yield.BatchLaneThrottle;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.GatewayProperties;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitProperties;
import io.sluice.governance.provider.OpenAiCompatibleClient;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.HdrHistogram.Histogram;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Batch yields to online, with the real gateway (Redis permits, Sentinel, Spring AI client) against the
 * mock provider. Online chat overload = more interactive callers than interactive permits, each calling
 * {@link LlmGateway#call} on the INTERACTIVE lane in a loop. Phase 1: online alone. Phase 2: the drain job
 * runs (batch lane, throttle fed by the real interactive permit occupancy in Redis), then the same online
 * overload starts; the batch lane's in-flight calls are sampled every 50 ms. Reports online p95 of both
 * phases and how long batch in-flight took to reach its floor. Needs SLUICE_DB_URL and SLUICE_REDIS_URL.
 *
 * <pre>
 * java -cp "bench/target/classes:$(cat bench/target/bench.cp)" io.sluice.bench.batch.YieldingBench \
 *     latencyMs=200 online=12 seconds=20 items=2000
 * </pre>
 */
@SpringBootApplication(scanBasePackageClasses = BatchJobsConfiguration.class)
@Import(BenchKnowledge.class)
public class YieldingBench {

    static GatewayAssembly assembly;

    @Bean
    LlmGateway benchGateway() {
        return assembly.gateway();
    }

    @Bean
    ClusterPermits benchClusterPermits() {
        return assembly.permits();
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>(Map.of("latencyMs", "200", "online", "12", "seconds", "20",
            "items", "2000", "permits", "8", "batchPermits", "4"));
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            opts.put(kv[0], kv.length > 1 ? kv[1] : "");
        }
        String db = System.getenv("SLUICE_DB_URL");
        String redisUrl = System.getenv("SLUICE_REDIS_URL");
        if (db == null || redisUrl == null) {
            System.err.println("SLUICE_DB_URL and SLUICE_REDIS_URL must be set");
            System.exit(2);
        }
        long latency = Long.parseLong(opts.get("latencyMs"));
        int online = Integer.parseInt(opts.get("online"));
        int seconds = Integer.parseInt(opts.get("seconds"));
        int permits = Integer.parseInt(opts.get("permits"));
        int batchPermits = Integer.parseInt(opts.get("batchPermits"));

        try (MockProvider mock = MockProvider.start(0)) {
            mock.scenario(Scenario.healthy().withFixedLatency(latency).withCompletionTokens(16));
            Config rc = new Config();
            rc.useSingleServer().setAddress(redisUrl).setConnectTimeout(5_000).setTimeout(3_000)
                .setConnectionPoolSize(64).setConnectionMinimumIdleSize(8);
            RedissonClient redisson = Redisson.create(rc);
            String prefix = "bench:yield:" + UUID.randomUUID().toString().substring(0, 8) + ":";
            assembly = GatewayAssembly.assemble(properties(mock.baseUrl(), prefix), permits(prefix, permits, batchPermits),
                redisson, new SimpleMeterRegistry(), OpenAiCompatibleClient.of(mock.baseUrl(), "bench"));
            Map<String, Object> p = new HashMap<>();
            p.put("spring.datasource.url", db);
            p.put("spring.flyway.locations", opts.getOrDefault("migrations", "filesystem:db/migration"));
            p.put("spring.main.web-application-type", "none");
            p.put("spring.main.banner-mode", "off");
            p.put("logging.level.root", "WARN");
            p.put("sluice.batch.worker-id", "bench-yield");
            p.put("sluice.batch.drain.concurrency", String.valueOf(batchPermits));
            p.put("sluice.batch.drain.chunk-size", "16");
            try (ConfigurableApplicationContext context = new SpringApplicationBuilder(YieldingBench.class)
                    .properties(p).run()) {
                LlmGateway gateway = assembly.gateway();
                BatchLaneThrottle throttle = context.getBean(BatchLaneThrottle.class);
                // warm up the client and the permits
                runOnline(gateway, online, 3);

                Result alone = runOnline(gateway, online, seconds);

                WorkQueue queue = context.getBean(WorkQueue.class);
                String q = "bench-yield-" + UUID.randomUUID().toString().substring(0, 8);
                for (int i = 0; i < Integer.parseInt(opts.get("items")); i++) {
                    queue.enqueue(NewWorkItem.of(q, "deferred_answer", "{\"question\": \"yield question " + i + "\"}"));
                }
                JobControl jobs = context.getBean(JobControl.class);
                long executionId = jobs.launch(DrainJobConfiguration.JOB_NAME, Map.of("queue", q)).getId();
                long waitStart = System.nanoTime();
                while (throttle.inFlight() < throttle.ceiling() && System.nanoTime() - waitStart < 30_000_000_000L) {
                    Thread.sleep(20);
                }
                int inFlightBefore = throttle.inFlight();
                // sample batch in flight while online overload runs
                List<long[]> samples = new ArrayList<>();
                AtomicBoolean sampling = new AtomicBoolean(true);
                long t0 = System.nanoTime();
                Thread sampler = new Thread(() -> {
                    while (sampling.get()) {
                        synchronized (samples) {
                            samples.add(new long[] {(System.nanoTime() - t0) / 1_000_000, throttle.inFlight(),
                                throttle.limit()});
                        }
                        try {
                            Thread.sleep(50);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                sampler.start();
                Result withBatch = runOnline(gateway, online, seconds);
                sampling.set(false);
                sampler.join();
                jobs.stop(executionId);

                long toFloor = -1;
                long staysAtFloorFrom = -1;
                int maxAfterFloor = 0;
                for (long[] s : samples) {
                    if (s[1] <= throttle.floor() && toFloor < 0) {
                        toFloor = s[0];
                    }
                }
                for (int i = samples.size() - 1; i >= 0; i--) {
                    if (samples.get(i)[1] > throttle.floor()) {
                        staysAtFloorFrom = i + 1 < samples.size() ? samples.get(i + 1)[0] : -1;
                        break;
                    }
                    staysAtFloorFrom = samples.get(i)[0];
                }
                for (long[] s : samples) {
                    if (toFloor >= 0 && s[0] >= toFloor + 2000) {
                        maxAfterFloor = (int) Math.max(maxAfterFloor, s[1]);
                    }
                }
                System.out.printf(Locale.ROOT, "mock latency %d ms, interactive permits %d, batch ceiling %d floor %d, "
                    + "online callers %d, %d s per phase%n", latency, permits, throttle.ceiling(), throttle.floor(), online,
                    seconds);
                System.out.println("| phase | online calls answered | saturated | p50 | p95 | p99 |");
                System.out.println("|---|---|---|---|---|---|");
                System.out.println(alone.row("online alone"));
                System.out.println(withBatch.row("online + drain job"));
                System.out.printf(Locale.ROOT, "online p95 with batch / without: %.3f%n",
                    withBatch.histogram.getValueAtPercentile(95) / (double) alone.histogram.getValueAtPercentile(95));
                System.out.printf(Locale.ROOT, "batch in flight before overload: %d; first at floor after %d ms; "
                    + "at floor continuously from %d ms; max in flight from 2 s after reaching the floor: %d%n",
                    inFlightBefore, toFloor, staysAtFloorFrom, maxAfterFloor);
            } finally {
                assembly.close();
                redisson.shutdown();
            }
        }
    }

    record Result(Histogram histogram, long answered, long saturated) {

        String row(String phase) {
            return String.format(Locale.ROOT, "| %s | %d | %d | %d ms | %d ms | %d ms |", phase, answered, saturated,
                histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(95),
                histogram.getValueAtPercentile(99));
        }
    }

    /** {@code callers} threads calling the interactive lane back to back for {@code seconds}; answered latencies. */
    static Result runOnline(LlmGateway gateway, int callers, int seconds) throws InterruptedException {
        Histogram histogram = new Histogram(60_000, 3);
        AtomicLong answered = new AtomicLong();
        AtomicLong saturated = new AtomicLong();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long start = System.nanoTime();
                    LlmOutcome outcome = gateway.call(LlmRequest.of(Lane.INTERACTIVE, 16,
                        LlmMessage.user("Where is my parcel? Order 4711.")));
                    long millis = (System.nanoTime() - start) / 1_000_000;
                    if (outcome instanceof LlmOutcome.Answered) {
                        synchronized (histogram) {
                            histogram.recordValue(Math.min(millis, 60_000));
                        }
                        answered.incrementAndGet();
                    } else {
                        saturated.incrementAndGet();
                    }
                }
            }, "online-" + i);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        return new Result(histogram, answered.get(), saturated.get());
    }

    private static GatewayProperties properties(String baseUrl, String prefix) {
        GatewayProperties.Sentinel sentinel = new GatewayProperties.Sentinel(64, 0, Duration.ofSeconds(5), 0.5, 0.5, 1000,
            Duration.ofSeconds(10), Duration.ofSeconds(30));
        Map<String, GatewayProperties.LaneConfig> lanes = new LinkedHashMap<>();
        for (Lane lane : Lane.values()) {
            Duration budget = lane == Lane.BATCH ? Duration.ofSeconds(60) : Duration.ofSeconds(6);
            lanes.put(lane.key(), new GatewayProperties.LaneConfig("primary", budget, 1, List.of(), Duration.ZERO,
                null, sentinel));
        }
        return new GatewayProperties(baseUrl, "bench", prefix,
            Map.of("primary", new GatewayProperties.Model("gpt-bench", null)), lanes,
            new GatewayProperties.Tpm(0, Duration.ofMinutes(1)),
            new GatewayProperties.RetryBudget(0.1, 3, Duration.ofSeconds(10)), Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    private static PermitProperties permits(String prefix, int interactive, int batch) {
        Map<String, PermitProperties.Lane> lanes = new LinkedHashMap<>();
        for (Lane lane : Lane.values()) {
            int n = lane == Lane.INTERACTIVE ? interactive : lane == Lane.BATCH ? batch : 4;
            Duration wait = lane == Lane.BATCH ? Duration.ofSeconds(30) : Duration.ofMillis(200);
            lanes.put(lane.key(), new PermitProperties.Lane(n, wait, Duration.ofSeconds(90)));
        }
        return new PermitProperties(prefix + "permits:", lanes);
    }
}
