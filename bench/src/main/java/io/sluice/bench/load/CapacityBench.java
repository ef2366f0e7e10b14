package io.sluice.bench.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Calls in flight (issue 15): the same closed loop straight to the mock, through the Portkey gateway
 * and through Sluice's {@code /v1/chat/completions}, at 50 ms × 128 and 1 s × 1,024 connections; then
 * thousands of concurrent SSE streams (chat stream and {@code /v1} stream) held open at once, with the
 * heap sampled, and permits and admission places read back at the end; then answers that need no LLM
 * through {@code /api/v1/chat} (exact cache hits, the FAQ tier). Every leg records the CPU time each
 * process spent (Sluice, its Redis, the mock, Portkey, this generator).
 */
final class CapacityBench {

    /** The capacity instances' -Xmx: scripts/run.sh's default, and the streams goal's bound. */
    static final String MAX_HEAP = "1g";

    /**
     * One closed-loop leg.
     *
     * @param compilingMs what Sluice's JIT compilers spent during the leg (NaN when its metrics could not be read)
     */
    record Leg(String name, String target, int connections, double seconds, long answers, long failures, long fiveXx,
            Histogram latency, Map<String, Duration> cpu, long[] arrivals, double compilingMs) {

        /** The legs of one target taken as one: answers, failures, seconds and CPU summed, latencies merged. */
        static Leg pooled(List<Leg> legs) {
            Leg first = legs.get(0);
            Histogram latency = new Histogram(first.latency().getHighestTrackableValue(),
                first.latency().getNumberOfSignificantValueDigits());
            Map<String, Duration> cpu = new LinkedHashMap<>();
            double seconds = 0;
            long answers = 0;
            long failures = 0;
            long fiveXx = 0;
            double compilingMs = 0;
            for (Leg leg : legs) {
                latency.add(leg.latency());
                leg.cpu().forEach((process, used) -> cpu.merge(process, used, Duration::plus));
                seconds += leg.seconds();
                answers += leg.answers();
                failures += leg.failures();
                fiveXx += leg.fiveXx();
                compilingMs += leg.compilingMs();
            }
            return new Leg(first.name(), first.target(), first.connections(), seconds, answers, failures, fiveXx, latency, cpu,
                legs.stream().flatMapToLong(leg -> Arrays.stream(leg.arrivals())).toArray(), compilingMs);
        }

        /**
         * How bunched the requests came: the busiest {@link #ARRIVAL_BUCKET_MS} ms of the measured leg over the mean one.
         * Independent users give about 1.2-1.5 here; a closed loop whose connections all started at once keeps sending
         * in one burst a provider latency (at 1 s × 1,024: every request of the second within a few hundred ms).
         */
        double burst() {
            LongSummaryStatistics buckets = Arrays.stream(arrivals).summaryStatistics();
            return buckets.getSum() == 0 ? Double.NaN : buckets.getMax() / buckets.getAverage();
        }

        double perSecond() {
            return answers / seconds;
        }

        double cpuMsPerAnswer(String... processes) {
            long nanos = 0;
            for (String p : processes) {
                Duration d = cpu.get(p);
                if (d != null) {
                    nanos += d.toNanos();
                }
            }
            return answers == 0 ? Double.NaN : nanos / 1e6 / answers;
        }

        double p(double percentile) {
            return latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(percentile) / 1e6;
        }
    }

    /** One held-open streams leg. */
    record StreamLeg(String target, int streams, long completed, long failed, long fiveXx, int peakOpen, double seconds,
            double maxHeapMb, double permitsAfter, double queueAfter, double streamsAfter, Histogram firstEvent,
            Map<String, Duration> cpu) {
    }

    /** Why requests failed, counted by kind (status and problem type, or the exception): the log says it, not just how many. */
    static final class Failures {
        // an OpenAI error's code says more than its type ("overloaded" vs "server_error"); a problem+json has a type
        private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([^\"]{1,80})\"");
        private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]{1,80})\"");
        private final Map<String, LongAdder> byKind = new ConcurrentHashMap<>();

        void add(int status, String body) {
            String text = body == null ? "" : body;
            Matcher code = CODE.matcher(text);
            Matcher type = TYPE.matcher(text);
            add(status + (code.find() ? " " + code.group(1) : type.find() ? " " + type.group(1) : ""));
        }

        void add(String kind) {
            byKind.computeIfAbsent(kind, k -> new LongAdder()).increment();
        }

        /** The three commonest kinds, e.g. {@code 429 rate_limited ×120}; empty when nothing failed. */
        String top() {
            return byKind.entrySet().stream()
                .sorted(Map.Entry.<String, LongAdder>comparingByValue(
                    Comparator.comparingLong(LongAdder::sum)).reversed())
                .limit(3).map(e -> e.getKey() + " ×" + e.getValue().sum())
                .collect(Collectors.joining(", "));
        }
    }

    /** Warm-up of Sluice's {@code /v1} and of each {@code /api/v1/chat} path, in legs' lengths (the report says them). */
    static final int V1_WARM_UP_LEGS = 4;
    /**
     * Each point's warm-up of Sluice runs legs until its JIT compilers spent at most this share of a leg's time compiling
     * (at most {@link #MAX_POINT_WARM_UP_LEGS} legs): a first measured leg that still compiles is slower than the one
     * after it, whatever came between them (docs/capacity.md, the fourth stop).
     */
    static final double SETTLED_COMPILING_SHARE = 0.01;
    static final int MAX_POINT_WARM_UP_LEGS = 4;

    /** Whether a warm-up leg of {@code seconds} in which Sluice compiled for {@code compilingMs} ends the warm-up. */
    static boolean compilerSettled(double compilingMs, double seconds) {
        // unreadable metrics cannot hold the run up: one leg as before
        return Double.isNaN(compilingMs) || compilingMs <= SETTLED_COMPILING_SHARE * seconds * 1000;
    }

    /** Seconds at the start of each closed-loop leg that run but are not measured (at most a quarter of the leg). */
    static final double SETTLE_SECONDS = 3;

    /** The settle time of a leg of {@code seconds}. */
    static double settleSeconds(double seconds) {
        return Math.min(SETTLE_SECONDS, seconds / 4);
    }
    /**
     * A leg starts once the watched processes together use less than this many cores (over {@link #QUIET_WINDOW}),
     * waiting at most {@link #QUIET_WAIT}: what the leg before left running (a peer closing a thousand sockets, a
     * collection after its load) is not counted against the next target.
     */
    static final double QUIET_CORES = 0.15;
    static final Duration QUIET_WINDOW = Duration.ofMillis(500);
    static final Duration QUIET_WAIT = Duration.ofSeconds(10);
    /** The width of the buckets {@link Leg#burst()} counts requests in. */
    static final int ARRIVAL_BUCKET_MS = 100;
    static final int CHAT_WARM_UP_LEGS = 2;

    static final String SLUICE = "sluice";
    static final String REDIS = "redis";
    /** The PostgreSQL both instances share (postmaster and backends): shown, never added to Sluice's figure. */
    static final String POSTGRES = "postgres";
    static final String PROVIDER_KEY = "bench-provider-key";

    /** Permits, limits and caps out of the way: this measures how many calls the instance can hold. */
    static Map<String, String> overrides(int streams) {
        int room = streams + 2048;
        Map<String, String> o = new LinkedHashMap<>();
        o.put("sluice.permits.lanes.interactive.permits", Integer.toString(room));
        o.put("sluice.permits.lanes.interactive.lease", "120s");
        o.put("sluice.gateway.lanes.interactive.sentinel.max-threads", Integer.toString(room));
        o.put("sluice.gateway.lanes.interactive.sentinel.slow-call", "120s");
        o.put("sluice.gateway.lanes.interactive.budget", "90s");
        o.put("sluice.chat.answer-budget", "90s");
        o.put("sluice.chat.stream-timeout", "120s");
        o.put("sluice.chat.stream-workers", Integer.toString(room));
        o.put("sluice.chat.admission.capacity", Integer.toString(room));
        o.put("sluice.ingress.rate.global.max-rate", "100000");
        o.put("sluice.ingress.rate.user.capacity", "100000");
        o.put("sluice.ingress.rate.user.refill-per-second", "10000");
        // each connection is one end user making 20 calls/s: the per-user LLM-call window (30/min) would refuse it
        o.put("sluice.ingress.rate.llm-calls.enabled", "false");
        // the token allocation stays in the path (its script runs per call) with a budget no leg can spend
        o.put("sluice.gateway.allocation.limit", "2000000000");
        o.put("server.tomcat.max-connections", Integer.toString(streams + 4096));
        o.put("server.tomcat.accept-count", "4096");
        o.put("sluice.permits.key-prefix", "sluice:bench-capacity:" + Long.toHexString(System.nanoTime()) + ":permits:");
        return o;
    }

    private final Fleet fleet;
    private final MockControl mock;
    private final Platform platform = new Platform();
    private final FrontDoorBench.Processes processes;
    private final String portkey;

    CapacityBench(Fleet fleet, MockControl mock, FrontDoorBench.Processes processes, String portkeyUrl) {
        this.fleet = fleet;
        this.mock = mock;
        this.processes = processes;
        this.portkey = portkeyUrl;
    }

    private void latency(long latencyMs, long interTokenMs, int tokens) {
        mock.scenario(Map.of("latency", "FIXED", "latencyMs", latencyMs, "concurrencyCap", 0, "hang", false,
            "errorRate", 0.0, "rateLimitRate", 0.0, "tailProbability", 0.0, "interTokenDelayMs", interTokenMs,
            "completionTokens", tokens, "cutStreamAfterTokens", -1));
    }

    /**
     * One (latency, connections) point: Sluice's own warm-up leg there, then two rounds of the targets, the second in
     * the reverse order of the first (direct, Portkey, Sluice; then Sluice, Portkey, direct). Read as one, the rounds
     * cancel what a leg's place in the run does to it (a box that slows down, a process that idled for a minute);
     * apart, they show how far one leg of a target may be from its other.
     */
    record Point(String name, List<Leg> warmUps, List<Leg> firstRound, List<Leg> secondRound, List<Leg> atOnce) {

        /** Sluice's warm-up leg just before round 1. */
        Leg warmUp() {
            return warmUps.get(warmUps.size() - 1);
        }

        /** {@code target}'s leg with every connection opened at once (direct and Sluice only). */
        Leg atOnce(String target) {
            return atOnce.stream().filter(l -> l.target().equals(target)).findFirst().orElseThrow();
        }

        /** {@code target}'s leg in round 1 or 2. */
        Leg leg(String target, int round) {
            return (round == 1 ? firstRound : secondRound).stream().filter(l -> l.target().equals(target)).findFirst()
                .orElseThrow();
        }

        /** {@code target}'s two legs taken as one. */
        Leg pooled(String target) {
            return Leg.pooled(List.of(leg(target, 1), leg(target, 2)));
        }

        /** The targets, in the first round's order. */
        List<String> targets() {
            return firstRound.stream().map(Leg::target).toList();
        }
    }

    /** Each (latency, connections) point of {@code plan} as a {@link Point}, after a warm-up of each path. */
    List<Point> throughput(double seconds, long[][] plan) throws InterruptedException {
        List<Point> points = new ArrayList<>();
        latency(50, 0, 8);
        // C2 needs about a minute and a half of this load on 2 cores before Sluice's CPU per answer settles
        // (hand-run, quiet machine: 2.2 → 1.1 ms from the second to the fifth 20 s run)
        long warmSpread = TimeUnit.MILLISECONDS.toNanos(50);
        closedLoop("warm-up", "sluice", 128, V1_WARM_UP_LEGS * seconds, warmSpread);
        if (portkey != null) {
            closedLoop("warm-up", "portkey", 128, seconds, warmSpread);
        }
        List<String> order = portkey == null ? List.of("direct", "sluice") : List.of("direct", "portkey", "sluice");
        for (long[] step : plan) {
            latency(step[0], 0, 8);
            String name = step[0] + " ms × " + step[1];
            int connections = (int) step[1];
            // each point's own warm-up too: a thousand calls in flight take branches (a round trip per slow user,
            // parked permits, bigger batches) that 128 connections did not, and C2 recompiles them (JFR: 11-14 %
            // of Sluice's CPU in the measured leg without it)
            // connections start spread over one provider latency, as independent users would: opened at once, a closed
            // loop with a fixed latency keeps its start as a burst a cycle (every request of a second within a few
            // hundred ms at 1 s × 1,024), which the leg after the rounds shows for direct and Sluice
            long spread = TimeUnit.MILLISECONDS.toNanos(step[0]);
            List<Leg> warmUps = new ArrayList<>();
            do {
                warmUps.add(closedLoop("warm-up " + name, "sluice", connections, seconds, spread));
            } while (warmUps.size() < MAX_POINT_WARM_UP_LEGS
                && !compilerSettled(warmUps.get(warmUps.size() - 1).compilingMs(), seconds));
            if (portkey != null) {
                // the peer's JIT meets the new load too: a leg of its own at the point (its compiler is not read)
                closedLoop("warm-up " + name, "portkey", connections, seconds, spread);
            }
            List<Leg> first = new ArrayList<>();
            for (String target : order) {
                first.add(closedLoop(name + ", round 1", target, connections, seconds, spread));
            }
            List<Leg> second = new ArrayList<>();
            for (String target : order.reversed()) {
                second.add(closedLoop(name + ", round 2", target, connections, seconds, spread));
            }
            List<Leg> atOnce = new ArrayList<>();
            for (String target : List.of("direct", "sluice")) {
                atOnce.add(closedLoop(name + ", opened at once", target, connections, seconds, 0));
            }
            points.add(new Point(name, warmUps, first, second, atOnce));
        }
        return points;
    }

    /** @param spreadNanos the connections' first requests are spread evenly over this (0: all at once) */
    private Leg closedLoop(String name, String target, int connections, double seconds, long spreadNanos)
            throws InterruptedException {
        String url = switch (target) {
            case "direct" -> fleet.mockUrl() + "/v1/chat/completions";
            case "portkey" -> portkey + "/v1/chat/completions";
            default -> fleet.url("a") + "/v1/chat/completions";
        };
        Map<String, String> headers = headers(target);
        return loop(name, target, url, headers, connections, seconds, spreadNanos,
            i -> "{\"model\":\"primary\",\"max_tokens\":8,\"user\":\"cap-" + i
                + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Where is my parcel? Order 4711.\"}]}",
            // through Sluice only the provider's answer counts (an F1 stand-in would flatter it)
            r -> !target.equals("sluice") || r.headers().firstValue("X-Sluice-Tier").orElse("").equals("F4"));
    }

    private Map<String, String> headers(String target) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json");
        switch (target) {
            case "direct" -> h.put("Authorization", "Bearer " + PROVIDER_KEY);
            case "portkey" -> {
                h.put("Authorization", "Bearer " + PROVIDER_KEY);
                h.put("x-portkey-provider", "openai");
                h.put("x-portkey-custom-host", fleet.mockUrl() + "/v1");
            }
            default -> h.put("Authorization", "Bearer " + Fleet.API_KEY);
        }
        return h;
    }

    /** Answers without the LLM through {@code /api/v1/chat}: exact cache hits (instance a), F1 (instance b). */
    List<Leg> noLlm(int connections, double seconds) throws InterruptedException {
        latency(50, 0, 8);
        String chat = "/api/v1/chat";
        Map<String, String> h = headers("sluice");
        String question = "退货的运费谁来出？";
        loop("cache warm", SLUICE, fleet.url("a") + chat, h, 1, 1, 0, i -> "{\"userId\":\"warm\",\"message\":\"" + question + "\"}",
            r -> true);
        List<Leg> legs = new ArrayList<>();
        // warm-up of each path, then the measured leg
        loop("warm-up", SLUICE, fleet.url("a") + chat, h, connections, CHAT_WARM_UP_LEGS * seconds, 0,
            i -> "{\"userId\":\"cache-" + i + "\",\"message\":\"" + question + "\"}", r -> true);
        legs.add(loop("exact cache hit", SLUICE, fleet.url("a") + chat, h, connections, seconds, 0,
            i -> "{\"userId\":\"cache-" + i + "\",\"message\":\"" + question + "\"}", r -> r.body().contains("\"cached\":true")));
        IntFunction<String> faq = i -> "{\"userId\":\"faq-" + i + "\",\"message\":\""
            + LoadGenerator.MESSAGES.get(i % LoadGenerator.MESSAGES.size()).formatted("1390000" + (1000 + i)) + "\"}";
        loop("warm-up", "sluice b", fleet.url("b") + chat, h, connections, CHAT_WARM_UP_LEGS * seconds, 0, faq, r -> true);
        legs.add(loop("FAQ tier (F1)", "sluice b", fleet.url("b") + chat, h, connections, seconds, 0, faq,
            r -> r.body().contains("\"tier\":\"F1\"")));
        // every question new (another phone number each time): no F1 answer kept for it, the knowledge is searched
        BodyPerCall newQuestions = (connection, call) -> "{\"userId\":\"faq-" + connection + "\",\"message\":\""
            + LoadGenerator.MESSAGES.get(connection % LoadGenerator.MESSAGES.size())
                .formatted(Long.toString(13_900_000_000L + connection * 10_000_000L + call)) + "\"}";
        legs.add(loop("FAQ tier (F1), every question new", "sluice b", fleet.url("b") + chat, h, connections, seconds, 0,
            newQuestions, true, r -> r.body().contains("\"tier\":\"F1\"")));
        return legs;
    }

    private Leg loop(String name, String target, String url, Map<String, String> headers, int connections, double seconds,
            long spreadNanos, IntFunction<String> bodies, Predicate<HttpResponse<String>> meant) throws InterruptedException {
        return loop(name, target, url, headers, connections, seconds, spreadNanos,
            (connection, call) -> bodies.apply(connection), false, meant);
    }

    /** Waits until the box is quiet ({@link #QUIET_CORES}); logs how long that took, or that it never came. */
    private void awaitQuiet(String leg) throws InterruptedException {
        long from = System.nanoTime();
        long at = from;
        Duration before = totalCpu();
        while (true) {
            Thread.sleep(QUIET_WINDOW.toMillis()); // a sampling period, not synchronisation
            Duration now = totalCpu();
            long nowAt = System.nanoTime();
            double cores = now.minus(before).toNanos() / (double) (nowAt - at);
            if (cores < QUIET_CORES) {
                ScenarioRunner.log(String.format("capacity %s: the box was quiet after %.1f s", leg, (nowAt - from) / 1e9));
                return;
            }
            if (nowAt - from >= QUIET_WAIT.toNanos()) {
                ScenarioRunner.log(String.format("capacity %s: the watched processes still used %.2f cores after %d s;"
                    + " measuring anyway", leg, cores, QUIET_WAIT.toSeconds()));
                return;
            }
            before = now;
            at = nowAt;
        }
    }

    private Duration totalCpu() {
        return processes.cpuNow().values().stream().reduce(Duration.ZERO, Duration::plus);
    }

    /** The body of one connection's {@code call}-th request. */
    interface BodyPerCall {
        String body(int connection, long call);
    }

    /** @param newBodies each request gets its own body (else each connection sends its first one again and again) */
    private Leg loop(String name, String target, String url, Map<String, String> headers, int connections, double seconds,
            long spreadNanos, BodyPerCall bodies, boolean newBodies, Predicate<HttpResponse<String>> meant)
            throws InterruptedException {
        awaitQuiet(name + " " + target);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
            .build();
        ConcurrentHistogram latency = new ConcurrentHistogram(TimeUnit.SECONDS.toNanos(120), 2);
        AtomicLong answers = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicLong fiveXx = new AtomicLong();
        Failures why = new Failures();
        // connection i starts at spread × i / connections (all at once when the spread is 0); the first SETTLE_SECONDS,
        // and at least the spread, are run but not measured, for every target alike, so the figures are the steady state
        long settle = (long) (settleSeconds(seconds) * 1e9);
        long opened = System.nanoTime();
        long measureFrom = opened + Math.max(settle, spreadNanos + settle / 2);
        long end = measureFrom + (long) (seconds * 1e9);
        long bucket = TimeUnit.MILLISECONDS.toNanos(ARRIVAL_BUCKET_MS);
        AtomicLongArray arrivals = new AtomicLongArray((int) ((end - measureFrom) / bucket));
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            int connection = i;
            LongFunction<HttpRequest> requests = call -> {
                HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(bodies.body(connection, call)));
                headers.forEach(builder::header);
                return builder.build();
            };
            HttpRequest first = requests.apply(0);
            long startAt = opened + spreadNanos * i / connections;
            workers.add(Thread.ofVirtual().name("cap-" + target + "-" + i).unstarted(() -> {
                long calls = 0;
                try {
                    long wait = startAt - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait); // pacing the generator, not a test
                    }
                } catch (InterruptedException e) {
                    return;
                }
                while (System.nanoTime() < end) {
                    HttpRequest request = newBodies ? requests.apply(calls++) : first;
                    long started = System.nanoTime();
                    long at = (started - measureFrom) / bucket;
                    if (started >= measureFrom && at < arrivals.length()) {
                        arrivals.incrementAndGet((int) at);
                    }
                    try {
                        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                        if (started < measureFrom) {
                            continue;
                        }
                        if (r.statusCode() == 200 && meant.test(r)) {
                            answers.incrementAndGet();
                            latency.recordValue(Math.min(latency.getHighestTrackableValue(), System.nanoTime() - started));
                        } else {
                            failures.incrementAndGet();
                            if (r.statusCode() == 200) {
                                why.add("200 not what was meant (tier " + r.headers().firstValue("X-Sluice-Tier").orElse("?") + ")");
                            } else {
                                why.add(r.statusCode(), r.body());
                            }
                            if (r.statusCode() >= 500) {
                                fiveXx.incrementAndGet();
                            }
                        }
                    } catch (IOException e) {
                        if (started >= measureFrom) {
                            failures.incrementAndGet();
                            why.add(e.getClass().getSimpleName());
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }));
        }
        workers.forEach(Thread::start);
        Thread.sleep(Math.max(0, (measureFrom - System.nanoTime()) / 1_000_000)); // pacing the generator, not a test
        // the scrapes stay outside the CPU window
        String process = target.equals("sluice b") ? "sluice b" : SLUICE;
        String instance = process.equals(SLUICE) ? "a" : "b";
        double compilingBefore = compilingMs(instance);
        Map<String, Duration> before = processes.cpuNow();
        long started = System.nanoTime();
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis((long) seconds + 40));
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        Map<String, Duration> cpu = processes.since(before);
        double compiling = compilingMs(instance) - compilingBefore;
        http.close();
        long[] counted = new long[arrivals.length()];
        Arrays.setAll(counted, arrivals::get);
        Leg leg = new Leg(name, target, connections, elapsed, answers.get(), failures.get(), fiveXx.get(), latency,
            cpu, counted, compiling);
        ScenarioRunner.log(String.format("capacity %s %s x%d: %.0f answers/s, %d failures (%d 5xx), p50 %.1f p99 %.1f ms,"
            + " CPU ms/answer sluice+redis %.3f, burst %.2f, sluice %s compiling %.0f ms", name, target, connections,
            leg.perSecond(), leg.failures(), leg.fiveXx(), leg.p(50), leg.p(99),
            leg.cpuMsPerAnswer(process, REDIS), leg.burst(), instance, compiling)
            + (leg.failures() > 0 ? "; failures: " + why.top() : ""));
        return leg;
    }

    /**
     * {@code streams} SSE streams opened over {@code rampSeconds}, each lasting about
     * {@code latency + tokens × interToken}, so that all are open at once; counts the peak of open
     * streams, samples the heap, then reads permits, admission places and open streams back.
     */
    StreamLeg streams(String target, int streams, double rampSeconds, long interTokenMs, int tokens)
            throws InterruptedException {
        latency(1000, interTokenMs, tokens);
        String url;
        String body;
        Map<String, String> headers = headers(target.startsWith("sluice") ? "sluice" : target);
        headers.put("Accept", "text/event-stream");
        switch (target) {
            case "sluice chat stream" -> {
                url = fleet.url("a") + "/api/v1/chat/stream";
                body = "{\"userId\":\"stream-%d\",\"message\":\"我的订单 %d 什么时候发货？\"}";
            }
            case "portkey" -> {
                url = portkey + "/v1/chat/completions";
                body = streamBody();
            }
            case "direct" -> {
                url = fleet.mockUrl() + "/v1/chat/completions";
                body = streamBody();
            }
            default -> {
                url = fleet.url("a") + "/v1/chat/completions";
                body = streamBody();
            }
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(20))
            .build();
        ConcurrentHistogram first = new ConcurrentHistogram(TimeUnit.SECONDS.toNanos(300), 2);
        AtomicInteger open = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicLong completed = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong fiveXx = new AtomicLong();
        Failures why = new Failures();
        CountDownLatch done = new CountDownLatch(streams);
        Map<String, Duration> before = processes.cpuNow();
        long started = System.nanoTime();
        double[] maxHeap = {0};
        Thread sampler = Thread.ofVirtual().start(() -> {
            while (done.getCount() > 0) {
                maxHeap[0] = Math.max(maxHeap[0], heapUsedMb());
                try {
                    Thread.sleep(1000); // a sampling period, not synchronisation
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        long gapNanos = (long) (rampSeconds * 1e9 / streams);
        for (int i = 0; i < streams; i++) {
            String text = body.contains("%d") ? body.formatted(i, 10000 + i) : body;
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(180))
                .POST(HttpRequest.BodyPublishers.ofString(text));
            headers.forEach(builder::header);
            HttpRequest request = builder.build();
            long opened = System.nanoTime();
            Thread.ofVirtual().start(() -> {
                boolean counted = false;
                try {
                    HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
                    if (r.statusCode() != 200) {
                        failed.incrementAndGet();
                        if (r.statusCode() >= 500) {
                            fiveXx.incrementAndGet();
                        }
                        try (InputStream in = r.body()) {
                            why.add(r.statusCode(), new String(in.readNBytes(2048), StandardCharsets.UTF_8));
                        }
                        return;
                    }
                    try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                        String line;
                        boolean ok = false;
                        String error = null;
                        while ((line = in.readLine()) != null) {
                            if (!counted && (line.startsWith("data:") || line.startsWith("event:"))) {
                                counted = true;
                                first.recordValue(Math.min(first.getHighestTrackableValue(), System.nanoTime() - opened));
                                peak.accumulateAndGet(open.incrementAndGet(), Math::max);
                            }
                            if (line.equals("data: [DONE]") || line.equals("event:done")) {
                                ok = true;
                            }
                            if (line.equals("event:error") || line.contains("\"stream_broken\"")) {
                                error = line;
                                break;
                            }
                        }
                        if (error != null) {
                            why.add("stream error: " + error.substring(0, Math.min(120, error.length())));
                            failed.incrementAndGet();
                        } else if (!ok) {
                            why.add("stream ended without its last event");
                            failed.incrementAndGet();
                        } else {
                            completed.incrementAndGet();
                        }
                    }
                } catch (IOException e) {
                    failed.incrementAndGet();
                    why.add(e.getClass().getSimpleName());
                } catch (InterruptedException e) {
                    failed.incrementAndGet();
                } finally {
                    if (counted) {
                        open.decrementAndGet();
                    }
                    done.countDown();
                }
            });
            long next = started + (i + 1) * gapNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait); // pacing the ramp
            }
        }
        done.await(300, TimeUnit.SECONDS);
        double elapsed = (System.nanoTime() - started) / 1e9;
        sampler.interrupt();
        Map<String, Duration> cpu = processes.since(before);
        http.close();
        double permits = Double.NaN;
        double queue = Double.NaN;
        double openAfter = Double.NaN;
        if (target.startsWith("sluice")) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            do {
                Map<String, Double> m = platform.metrics(fleet.managementUrl("a"));
                permits = Platform.sum(m, "sluice_gateway_permits_used");
                queue = Platform.sum(m, "sluice_chat_admission_waiting");
                openAfter = Platform.sum(m, "sluice_chat_streams_active");
                if (permits == 0 && (Double.isNaN(queue) || queue == 0) && (Double.isNaN(openAfter) || openAfter == 0)) {
                    break;
                }
                TimeUnit.MILLISECONDS.sleep(500); // a stream's permit is released as its socket closes: bounded wait
            } while (System.nanoTime() < deadline);
        }
        StreamLeg leg = new StreamLeg(target, streams, completed.get(), failed.get(), fiveXx.get(), peak.get(), elapsed,
            target.startsWith("sluice") ? maxHeap[0] : Double.NaN, permits, queue, openAfter, first, cpu);
        ScenarioRunner.log(String.format("capacity streams %s: %d opened, %d completed, %d failed (%d 5xx), peak open %d,"
            + " max heap %.0f MiB, permits after %.0f, queue after %.0f", target, streams, leg.completed(), leg.failed(),
            leg.fiveXx(), leg.peakOpen(), leg.maxHeapMb(), permits, queue) + (leg.failed() > 0 ? "; failures: " + why.top() : ""));
        return leg;
    }

    private static String streamBody() {
        // one end user per stream, as 5,000 open streams are in practice (one user's first requests are bounded
        // by the new-user bucket until an answer of theirs ends)
        return "{\"model\":\"primary\",\"stream\":true,\"user\":\"s-%d\",\"messages\":[{\"role\":\"user\","
            + "\"content\":\"Where is my parcel? Order 4711.\"}]}";
    }

    /** The time instance {@code name}'s JIT compilers have spent so far, from its metrics (NaN when unreadable). */
    private double compilingMs(String name) {
        return Platform.sum(platform.metrics(fleet.managementUrl(name)), "jvm_compilation_time_ms_total");
    }

    private double heapUsedMb() {
        Map<String, Double> m = platform.metrics(fleet.managementUrl("a"));
        double used = Platform.sum(m, "jvm_memory_used_bytes", "area=\"heap\"");
        return Double.isNaN(used) ? 0 : used / (1024 * 1024);
    }
}
