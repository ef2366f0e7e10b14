package io.sluice.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

/**
 * The scenarios of issue 8, sized from the capacity: interactive permits ÷ provider latency is the
 * LLM answers per second the cluster can give (Little's law). Steady load is 40 % of it (served at
 * F4); a surge ramps to 5× it and back. Fault scenarios run steady load with a fault in the middle:
 * before (baseline), during, after (recovery).
 */
final class Scenarios {

    static final List<String> NAMES = List.of("steady", "surge", "provider-slow", "provider-hang", "429-storm",
        "5xx-burst", "redis-restart", "postgres-restart", "batch-online", "summary-flood", "instance-kill", "frontdoor",
        "capacity", "rolling-restart", "redis-failover", "provider-failover");
    /** Scenarios that measure speed, not invariants under faults: left to full mode or asked for by name. */
    static final List<String> SPEED = List.of("frontdoor", "capacity");
    /** The fleet scenarios: restarts take minutes, the failover needs the Sentinel set-up; named, or full mode. */
    static final List<String> FLEET = List.of("rolling-restart", "redis-failover");
    /** In-process gateway scenarios (no fleet: three mock providers, one gateway, real Redis; 40 s): named, or full mode. */
    static final List<String> GATEWAY = List.of("provider-failover");
    /** Short (CI smoke) default: every chaos scenario; speed comparisons, fleet and gateway scenarios are left to full mode. */
    static final List<String> SHORT_DEFAULT = NAMES.stream()
        .filter(n -> !SPEED.contains(n) && !FLEET.contains(n) && !GATEWAY.contains(n))
        .toList();

    /** Full mode: every scenario; redis-failover only on the Sentinel set-up (SLUICE_BENCH_REDIS=sentinel). */
    static List<String> fullDefault() {
        boolean sentinel = System.getenv("SLUICE_REDIS_SENTINEL_MASTER") != null && System.getenv("SLUICE_REDIS_TOPOLOGY_DIR") != null;
        return NAMES.stream().filter(n -> sentinel || !n.equals("redis-failover")).toList();
    }

    final boolean shortMode;
    final long latencyMs;
    final int permits;
    final double capacity;
    final double steadyRate;
    final double surgePeak;

    Scenarios(boolean shortMode, long latencyMs, int permits) {
        this.shortMode = shortMode;
        this.latencyMs = latencyMs;
        this.permits = permits;
        this.capacity = permits * 1000.0 / latencyMs;
        this.steadyRate = 0.4 * capacity;
        this.surgePeak = 5 * capacity;
    }

    /** Seconds of load per scenario: 20 s short; full mode 2 minutes, or SLUICE_BENCH_SCENARIO_SECONDS (60–180). */
    double length() {
        if (shortMode) {
            return 20;
        }
        String configured = System.getenv("SLUICE_BENCH_SCENARIO_SECONDS");
        if (configured == null || configured.isBlank()) {
            return 120;
        }
        int seconds = Integer.parseInt(configured.trim());
        if (seconds < 60 || seconds > 180) {
            throw new IllegalArgumentException("SLUICE_BENCH_SCENARIO_SECONDS must be 60 to 180, was " + seconds);
        }
        return seconds;
    }

    /**
     * Whole seconds the degradation level waits before each step back up, and the chat load window:
     * 1 s and 3 s in short mode; in full mode a twelfth of the scenario (10 s at 120 s), so that the
     * stepwise climb back from L3 fits a shorter or longer scenario in the same proportion.
     */
    long levelStepSeconds() {
        return shortMode ? 1 : Math.round(length() / 12);
    }

    long loadWindowSeconds() {
        return shortMode ? 3 : levelStepSeconds();
    }

    ScenarioPlan plan(String name) {
        double t = length();
        double pre = t * 0.2;
        double faultEnd = t * 0.5;
        // recovery bound: the rest of the scenario after the fault, less one level step of margin
        double bound = t - faultEnd - (shortMode ? 2 : levelStepSeconds());
        return switch (name) {
            case "steady" -> new ScenarioPlan(name, "mixed intents and users at 40 % of capacity", t, constant(steadyRate),
                List.of(), -1, -1, 0, false, false, 0, -1, -1);
            case "surge" -> surge(name, "offered load ramps to 5× capacity and back", false);
            case "instance-kill" -> surge(name, "surge; kill -9 of instance b at the peak", true);
            case "provider-slow" -> fault(name, "provider p99 = 10× normal latency (2 % of calls take 10×)", pre, faultEnd, bound,
                Map.of("latency", "LONG_TAIL", "latencyMs", latencyMs, "tailProbability", 0.02, "tailMs", latencyMs * 10),
                Map.of("latency", "FIXED", "latencyMs", latencyMs, "tailProbability", 0.0, "tailMs", 0), false);
            case "provider-hang" -> fault(name, "provider accepts calls and never answers", pre, faultEnd, bound,
                Map.of("hang", true), Map.of("hang", false), false);
            case "429-storm" -> fault(name, "provider answers 90 % of calls 429 (Retry-After 2 s)", pre, faultEnd, bound,
                Map.of("rateLimitRate", 0.9, "retryAfterSeconds", 2), Map.of("rateLimitRate", 0.0), true);
            case "5xx-burst" -> fault(name, "provider answers 50 % of calls 500/502/503", pre, faultEnd, bound,
                Map.of("errorRate", 0.5), Map.of("errorRate", 0.0), false);
            case "redis-restart" -> chaos(name, "Redis stopped for 3 s and started empty, under steady load", pre, bound,
                "redis-restart");
            case "postgres-restart" -> chaos(name, "PostgreSQL stopped for 3 s and started again, under steady load", pre,
                bound, "postgres-restart");
            case "batch-online" -> new ScenarioPlan(name, "work items drained at full speed under steady online load", t,
                constant(steadyRate), List.of(new ScenarioPlan.Event(0.5, "drain job started",
                    ScenarioRunner.Context::startDrain)), -1, -1, 0, false, false, shortMode ? 40 : 400, -1, -1);
            // token allocation by request type (#18): summaries flood the batch lane while chat answers keep coming
            case "summary-flood" -> new ScenarioPlan(name, "document summaries queued in bulk and drained under steady"
                + " online load (token shares by request type)", t, constant(steadyRate), List.of(new ScenarioPlan.Event(0.5,
                    "drain job started", ScenarioRunner.Context::startDrain)), -1, -1, 0, false, false, shortMode ? 150 : 1500,
                -1, -1);
            // the load lasts as long as the restarts (each instance rebuilds its index on start: about a minute here)
            case "rolling-restart" -> new ScenarioPlan(name, "steady load; every instance in turn stopped gracefully (SIGTERM)"
                + " and started again", t + Fleet.instanceNames().size() * (shortMode ? 60 : 90), constant(steadyRate), List.of(new ScenarioPlan.Event(pre, "rolling restart",
                    ScenarioRunner.Context::rollingRestart)), -1, -1, 0, false, false, 0, -1, -1);
            case "redis-failover" -> new ScenarioPlan(name, "steady load; kill -9 of the Redis Sentinel master (replica promoted)",
                t, constant(steadyRate), List.of(new ScenarioPlan.Event(pre, "kill -9 Redis master",
                    ScenarioRunner.Context::redisFailover)), pre, pre + 5, bound + (t * 0.5 - pre - 5), false, false, 0, -1, -1);
            default -> throw new IllegalArgumentException("no plan for " + name);
        };
    }

    /**
     * Short mode's surges run {@value #SHORT_SURGE_TAIL} s past the others' 20 s: the admission backlog of
     * the 5× peak (up to 2–4 s of S and A requests) still drains at capacity after the ramp-down, and only
     * then can the level step back (1 s a step), so 8 s after the surge were too tight to show recovery on a
     * busy machine (CI, 2026-12-01: L2 → L1 → L2 while the backlog held every permit). The surge's shape is
     * the 20 s one.
     */
    static final int SHORT_SURGE_TAIL = 6;

    private ScenarioPlan surge(String name, String title, boolean kill) {
        double shape = length();
        double t = shortMode ? shape + SHORT_SURGE_TAIL : shape;
        double up = shape * 0.15;
        double peak = shape * 0.3;
        double down = shape * 0.45;
        double end = shape * 0.55;
        DoubleUnaryOperator rate = s -> {
            if (s < up) {
                return steadyRate;
            }
            if (s < peak) {
                return steadyRate + (surgePeak - steadyRate) * (s - up) / (peak - up);
            }
            if (s < down) {
                return surgePeak;
            }
            if (s < end) {
                return surgePeak - (surgePeak - steadyRate) * (s - down) / (end - down);
            }
            return steadyRate;
        };
        List<ScenarioPlan.Event> events = new ArrayList<>();
        if (kill) {
            events.add(new ScenarioPlan.Event(peak, "kill -9 instance b", c -> c.kill("b")));
        }
        return new ScenarioPlan(name, title, t, rate, events, up, end, t - end - (shortMode ? 1 : 5), false, kill, 0, peak, down);
    }

    private ScenarioPlan fault(String name, String title, double start, double end, double bound, Map<String, Object> on,
            Map<String, Object> off, boolean storm) {
        return new ScenarioPlan(name, title, length(), constant(steadyRate), List.of(
            new ScenarioPlan.Event(start, "fault on: " + on, c -> c.mock().scenario(on)),
            new ScenarioPlan.Event(end, "fault off", c -> c.mock().scenario(off))), start, end, bound, storm, false, 0, -1, -1);
    }

    private ScenarioPlan chaos(String name, String title, double start, double bound, String command) {
        double down = 3;
        return new ScenarioPlan(name, title, length(), constant(steadyRate), List.of(
            new ScenarioPlan.Event(start, command + " (down " + (int) down + " s)", c -> c.chaos(command, down))),
            start, start + down, bound + (length() * 0.5 - start - down), false, false, 0, -1, -1);
    }

    private static DoubleUnaryOperator constant(double rate) {
        return s -> rate;
    }
}
