package io.sluice.bench.gateway;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.GatewayProperties;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.permit.PermitProperties;
import io.sluice.governance.provider.OpenAiCompatibleClient;
import io.sluice.governance.provider.ProviderEndpoint;
import io.sluice.governance.provider.ProviderKind;
import io.sluice.governance.provider.ProviderPool;
import io.sluice.governance.provider.ProviderSettings;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StackedXYAreaRenderer2;
import org.jfree.data.xy.DefaultTableXYDataset;
import org.jfree.data.xy.XYSeries;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Scenario {@code provider-failover}: one route served by three mock providers (a weight 3, b weight 2,
 * c weight 1 and slow, 300 ms), a closed loop of callers through one in-process gateway (real Redis).
 * Phases: 0–10 s healthy; 10–20 s a answers 503 to everything; 20–30 s b answers 429 with Retry-After 5
 * (and a is back); 30–40 s b announces 3 remaining requests (below its shift threshold of 10). Per second:
 * answers by provider, and calls not answered. Writes {@code docs/bench/provider-failover.png} and
 * {@code docs/bench-runs/provider-failover.md}.
 * The harness runs it as scenario {@code provider-failover} ({@code scripts/bench.sh --scenarios provider-failover};
 * full mode too, not the short CI smoke), with the invariants {@link Result#checks()}.
 * Usage on its own: {@code ProviderFailoverBench [redisUrl] [callers] [outDir]}.
 */
public final class ProviderFailoverBench {

    enum Phase { HEALTHY, A_DOWN, B_RATE_LIMITED, B_LOW }

    private static final int PHASE_SECONDS = 10;

    private ProviderFailoverBench() {
    }

    /** One phase's counts: answers by provider, calls not answered, requests that reached each mock, b's 429s. */
    public record Row(String phase, long byA, long byB, long byC, long notAnswered, long reachedA, long reachedB,
            long reachedC, long bRateLimited) {
    }

    /** One invariant: its name, what was measured, whether it held. */
    public record Check(String name, String measured, boolean passed) {
    }

    /** What one run measured, and where its chart and table went. */
    public record Result(List<Row> rows, int callers, Path chart, Path table) {

        /**
         * The acceptance of issue 16: no call lost in any phase; a rate-limited b gets nothing until its
         * Retry-After (at most one 429 per 5 s, plus one at the phase edge); a b low on requests gets no 429 and
         * under 5 % of the calls (traffic moved before any 429).
         */
        public List<Check> checks() {
            List<Check> checks = new ArrayList<>();
            long lost = rows.stream().mapToLong(Row::notAnswered).sum();
            checks.add(new Check("no call lost (every phase)", lost + " not answered", lost == 0));
            Row limited = rows.get(Phase.B_RATE_LIMITED.ordinal());
            checks.add(new Check("b rate-limited: nothing sent to it until Retry-After", limited.bRateLimited()
                + " 429s from b in 10 s (Retry-After 5 s)", limited.bRateLimited() <= 3));
            Row low = rows.get(Phase.B_LOW.ordinal());
            long total = low.byA() + low.byB() + low.byC() + low.notAnswered();
            checks.add(new Check("b low on remaining requests: shifted before any 429", low.bRateLimited() + " 429s, "
                + low.reachedB() + " of " + total + " calls reached b", low.bRateLimited() == 0 && low.reachedB() * 20 < total));
            Row down = rows.get(Phase.A_DOWN.ordinal());
            checks.add(new Check("a down: answered by b and c", down.byA() + " answers from a, " + (down.byB() + down.byC())
                + " from b and c", down.notAnswered() == 0 && down.byB() + down.byC() > 0));
            return checks;
        }

        public boolean passed() {
            return checks().stream().allMatch(Check::passed);
        }
    }

    public static void main(String[] args) throws Exception {
        String redisUrl = args.length > 0 ? args[0] : System.getenv("SLUICE_REDIS_URL");
        int callers = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        Path out = Path.of(args.length > 2 ? args[2] : "docs");
        Result result = run(redisUrl, callers, out);
        result.checks().forEach(c -> System.out.println((c.passed() ? "ok   " : "FAIL ") + c.name() + ": " + c.measured()));
        System.exit(result.passed() ? 0 : 1);
    }

    /** Runs the four phases (40 s); writes {@code out/bench/provider-failover.png} and {@code out/bench-runs/provider-failover.md}. */
    public static Result run(String redisUrl, int callers, Path out) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(redisUrl).setConnectionPoolSize(64).setConnectionMinimumIdleSize(4);
        RedissonClient redisson = Redisson.create(config);
        String prefix = "bench:failover:" + UUID.randomUUID().toString().substring(0, 8) + ":";
        try (MockProvider a = MockProvider.start(0); MockProvider b = MockProvider.start(0); MockProvider c = MockProvider.start(0)) {
            c.scenario(Scenario.healthy().withFixedLatency(300));
            a.scenario(Scenario.healthy().withFixedLatency(20));
            b.scenario(Scenario.healthy().withFixedLatency(20));
            ProviderSettings plain = new ProviderSettings(0, 0, 0, null, null, 5, Duration.ofSeconds(3), 10, 0);
            try (GatewayAssembly assembly = GatewayAssembly.assemble(properties(prefix), permits(prefix, callers), redisson,
                    new SimpleMeterRegistry(), List.of(spec("a", a, plain), spec("b", b, plain), spec("c", c, plain)))) {
                Map<Integer, Map<String, AtomicLong>> perSecond = new ConcurrentHashMap<>();
                Map<Phase, Map<String, AtomicLong>> perPhase = new EnumMap<>(Phase.class);
                for (Phase p : Phase.values()) {
                    perPhase.put(p, new ConcurrentHashMap<>());
                }
                Map<Phase, long[]> requestsAt = new EnumMap<>(Phase.class);
                long start = System.nanoTime();
                long end = start + TimeUnit.SECONDS.toNanos(PHASE_SECONDS * Phase.values().length);
                ExecutorService pool = Executors.newFixedThreadPool(callers);
                LlmGateway gateway = assembly.gateway();
                for (int i = 0; i < callers; i++) {
                    pool.submit(() -> {
                        while (System.nanoTime() < end) {
                            LlmOutcome outcome = gateway.call(LlmRequest.of(Lane.INTERACTIVE, 16,
                                LlmMessage.user("Where is my parcel?")));
                            int second = (int) ((System.nanoTime() - start) / 1_000_000_000L);
                            String key = outcome instanceof LlmOutcome.Answered answered ? answered.provider() : "not answered";
                            perSecond.computeIfAbsent(second, s -> new ConcurrentHashMap<>())
                                .computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
                            Phase phase = Phase.values()[Math.min(Phase.values().length - 1, second / PHASE_SECONDS)];
                            perPhase.get(phase).computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
                        }
                        return null;
                    });
                }
                for (Phase phase : Phase.values()) {
                    switch (phase) {
                        case HEALTHY -> { }
                        case A_DOWN -> a.scenario(Scenario.healthy().withFixedLatency(20).withErrors(1.0, 503));
                        case B_RATE_LIMITED -> {
                            a.scenario(Scenario.healthy().withFixedLatency(20));
                            b.scenario(Scenario.healthy().withFixedLatency(20).withRateLimited(1.0, 5));
                        }
                        case B_LOW -> {
                            b.scenario(Scenario.healthy().withFixedLatency(20));
                            b.remainingRequests(3);
                        }
                    }
                    long[] before = {a.counters().requests(), b.counters().requests(), c.counters().requests(),
                        b.counters().rejected()};
                    Thread.sleep(PHASE_SECONDS * 1000L); // the phase runs: this is the load's clock, not synchronisation
                    requestsAt.put(phase, new long[] {a.counters().requests() - before[0], b.counters().requests() - before[1],
                        c.counters().requests() - before[2], b.counters().rejected() - before[3]});
                }
                pool.shutdown();
                pool.awaitTermination(30, TimeUnit.SECONDS);
                Path chart = out.resolve("bench").resolve("provider-failover.png");
                Path table = out.resolve("bench-runs").resolve("provider-failover.md");
                chart(perSecond, chart);
                report(perPhase, requestsAt, callers, table);
                List<Row> rows = new ArrayList<>();
                for (Phase p : Phase.values()) {
                    Map<String, AtomicLong> m = perPhase.get(p);
                    long[] r = requestsAt.get(p);
                    rows.add(new Row(p.name().toLowerCase().replace('_', ' '), get(m, "a"), get(m, "b"), get(m, "c"),
                        get(m, "not answered"), r[0], r[1], r[2], r[3]));
                }
                return new Result(List.copyOf(rows), callers, chart, table);
            }
        } finally {
            redisson.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    private static ProviderPool.Spec spec(String name, MockProvider mock, ProviderSettings settings) {
        ProviderEndpoint endpoint = new ProviderEndpoint(name, ProviderKind.OPENAI_COMPATIBLE, mock.baseUrl(), "bench", null);
        return new ProviderPool.Spec(endpoint, new OpenAiCompatibleClient(endpoint), settings);
    }

    private static GatewayProperties properties(String prefix) {
        GatewayProperties.Sentinel sentinel = new GatewayProperties.Sentinel(256, 0, Duration.ofSeconds(5), 1, 1, 100000,
            Duration.ofSeconds(10), Duration.ofSeconds(1));
        Map<String, GatewayProperties.LaneConfig> lanes = new LinkedHashMap<>();
        for (Lane lane : Lane.values()) {
            lanes.put(lane.key(), new GatewayProperties.LaneConfig("primary", Duration.ofSeconds(2), 1, List.of(), Duration.ZERO,
                null, sentinel));
        }
        Map<String, GatewayProperties.Model> models = Map.of("primary", new GatewayProperties.Model("gpt-x", null, List.of(
            new GatewayProperties.Target("a", "gpt-x", 3), new GatewayProperties.Target("b", "gpt-x", 2),
            new GatewayProperties.Target("c", "gpt-x", 1)), List.of()));
        return new GatewayProperties(null, null, prefix, models, lanes, new GatewayProperties.Tpm(0, Duration.ofMinutes(1)),
            new GatewayProperties.RetryBudget(0.1, 3, Duration.ofSeconds(10)), Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    private static PermitProperties permits(String prefix, int callers) {
        Map<String, PermitProperties.Lane> lanes = new LinkedHashMap<>();
        for (Lane lane : Lane.values()) {
            lanes.put(lane.key(), new PermitProperties.Lane(callers, Duration.ofSeconds(1), Duration.ofSeconds(30)));
        }
        return new PermitProperties(prefix + "permits:", lanes);
    }

    private static void chart(Map<Integer, Map<String, AtomicLong>> perSecond, Path file) throws IOException {
        DefaultTableXYDataset data = new DefaultTableXYDataset();
        for (String key : List.of("a", "b", "c", "not answered")) {
            XYSeries series = new XYSeries(key.equals("not answered") ? key : "answered by " + key, false, false);
            for (int s = 0; s < PHASE_SECONDS * Phase.values().length; s++) {
                Map<String, AtomicLong> m = perSecond.getOrDefault(s, Map.of());
                series.add(s, m.containsKey(key) ? m.get(key).get() : 0);
            }
            data.addSeries(series);
        }
        StackedXYAreaRenderer2 renderer = new StackedXYAreaRenderer2();
        Color[] colors = {new Color(0, 110, 200), new Color(250, 170, 40), new Color(120, 180, 90), new Color(220, 0, 0)};
        for (int i = 0; i < colors.length; i++) {
            renderer.setSeriesPaint(i, colors[i]);
        }
        XYPlot plot = new XYPlot(data, new NumberAxis("second (10-20 a down · 20-30 b 429 Retry-After 5 · 30-40 b low on requests)"),
            new NumberAxis("calls per second"), renderer);
        plot.setBackgroundPaint(Color.WHITE);
        for (int s = PHASE_SECONDS; s < PHASE_SECONDS * Phase.values().length; s += PHASE_SECONDS) {
            plot.addDomainMarker(new ValueMarker(s, Color.DARK_GRAY, new java.awt.BasicStroke(1.2f)));
        }
        JFreeChart chart = new JFreeChart("provider-failover: answers by provider", JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        Files.createDirectories(file.getParent());
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 1100, 500);
    }

    private static void report(Map<Phase, Map<String, AtomicLong>> perPhase, Map<Phase, long[]> requests, int callers,
            Path file) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# provider-failover (").append(Instant.now()).append(")\n\n");
        md.append("One route over three mock providers (a ×3, b ×2, c ×1 and 300 ms slow), ").append(callers)
            .append(" closed-loop callers, interactive budget 2 s, provider breaker 5 failures / 3 s, shift below 10 "
                + "remaining requests. `ProviderFailoverBench`; chart: `docs/bench/provider-failover.png`.\n\n");
        md.append("| phase (10 s each) | answered by a | by b | by c | not answered | requests reaching a | b | c | b's 429s |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Phase p : Phase.values()) {
            Map<String, AtomicLong> m = perPhase.get(p);
            long[] r = requests.get(p);
            md.append("| ").append(p.name().toLowerCase().replace('_', ' ')).append(" | ").append(get(m, "a")).append(" | ")
                .append(get(m, "b")).append(" | ").append(get(m, "c")).append(" | ").append(get(m, "not answered"))
                .append(" | ").append(r[0]).append(" | ").append(r[1]).append(" | ").append(r[2]).append(" | ").append(r[3])
                .append(" |\n");
        }
        Files.createDirectories(file.getParent());
        Files.writeString(file, md.toString());
        System.out.println(md);
    }

    private static long get(Map<String, AtomicLong> m, String key) {
        AtomicLong v = m.get(key);
        return v == null ? 0 : v.get();
    }
}
