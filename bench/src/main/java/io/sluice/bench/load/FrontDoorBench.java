package io.sluice.bench.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Front-door throughput: {@code POST /v1/chat/completions} through Sluice against the same request
 * straight to the mock (50 ms latency), closed loop at 32 and 128 connections, same machine, same run,
 * alternating. Permits, rate limits and the global limiter are set so they do not bind: this measures
 * the front door's cost, not its governance.
 */
final class FrontDoorBench {

    /** One measured leg, with the CPU time each process on the machine spent in it. */
    record Leg(String target, int connections, double seconds, long answers, long failures, Histogram latency,
            Map<String, Duration> cpu) {
        double perSecond() {
            return answers / seconds;
        }

        /** CPU milliseconds per answer of each measured process, e.g. "sluice 1.9, mock 0.4". */
        String cpuPerAnswer() {
            if (answers == 0 || cpu.isEmpty()) {
                return "–";
            }
            StringBuilder text = new StringBuilder();
            cpu.forEach((name, used) -> text.append(text.isEmpty() ? "" : ", ")
                .append(String.format("%s %.2f", name, used.toNanos() / 1e6 / answers)));
            return text.toString();
        }
    }

    /**
     * The processes whose CPU time a leg reads: the Sluice instance, the mock, this generator. A name in
     * {@code trees} reads its process and every descendant (PostgreSQL: the postmaster and its backends).
     */
    record Processes(Map<String, ProcessHandle> byName, Set<String> trees) {
        Processes {
            byName = new LinkedHashMap<>(byName); // a copy, in the given order
            trees = Set.copyOf(trees);
        }

        Processes(Map<String, ProcessHandle> byName) {
            this(byName, Set.of());
        }

        /** These processes and one more. */
        Processes with(String name, ProcessHandle process) {
            Map<String, ProcessHandle> more = new LinkedHashMap<>(byName);
            more.put(name, process);
            return new Processes(more, trees);
        }

        /** These processes and one more whose descendants count with it. */
        Processes withTree(String name, ProcessHandle process) {
            Set<String> moreTrees = new java.util.HashSet<>(trees);
            moreTrees.add(name);
            return new Processes(with(name, process).byName(), moreTrees);
        }

        Map<String, Duration> cpuNow() {
            Map<String, Duration> now = new LinkedHashMap<>();
            byName.forEach((name, p) -> {
                Duration used = cpu(p);
                if (trees.contains(name)) {
                    // a backend that ends within a leg takes its CPU with it: the pool's backends live for the run
                    used = p.descendants().map(Processes::cpu).reduce(used, Duration::plus);
                }
                now.put(name, used);
            });
            return now;
        }

        private static Duration cpu(ProcessHandle p) {
            return p.info().totalCpuDuration().orElse(Duration.ZERO);
        }

        Map<String, Duration> since(Map<String, Duration> before) {
            Map<String, Duration> used = new LinkedHashMap<>();
            cpuNow().forEach((name, d) -> used.put(name, d.minus(before.getOrDefault(name, Duration.ZERO))));
            return used;
        }
    }

    /** The Sluice instance the front-door legs go to, as {@link Processes} names it. */
    static final String SLUICE = "sluice a";
    static final long LATENCY_MS = 50;
    static final Map<String, String> OVERRIDES = Map.of(
        "sluice.permits.lanes.interactive.permits", "1024",
        "sluice.gateway.lanes.interactive.sentinel.max-threads", "1024",
        "sluice.ingress.rate.global.max-rate", "100000",
        "sluice.ingress.rate.user.capacity", "100000",
        "sluice.ingress.rate.user.refill-per-second", "10000",
        "server.tomcat.threads.max", "300",
        // cluster permits are sized once per cluster (Redis key): a key space of its own, so the 1024 apply
        "sluice.permits.key-prefix", "sluice:bench-frontdoor:" + Long.toHexString(System.nanoTime()) + ":permits:");

    private FrontDoorBench() {
    }

    static List<Leg> run(String sluiceBase, String mockBase, MockControl mock, Processes processes, double seconds)
            throws InterruptedException {
        mock.scenario(Map.of("latency", "FIXED", "latencyMs", LATENCY_MS, "concurrencyCap", 0, "hang", false,
            "errorRate", 0.0, "rateLimitRate", 0.0, "tailProbability", 0.0));
        // warm both paths first (JIT, connection pools), Sluice for three measured legs, then let its
        // compilers finish: on 2 cores they still used ~1 core a minute after the warm-up (the CPU
        // column); then measure each connection count, direct then Sluice
        leg("direct", mockBase + "/v1/chat/completions", null, 128, seconds, processes);
        leg("sluice", sluiceBase + "/v1/chat/completions", Fleet.API_KEY, 128, 3 * seconds, processes);
        awaitIdle(SLUICE, processes, Duration.ofSeconds((long) (6 * seconds)));
        List<Leg> legs = new ArrayList<>();
        for (int connections : new int[] {32, 128}) {
            legs.add(leg("direct", mockBase + "/v1/chat/completions", null, connections, seconds, processes));
            legs.add(leg("sluice", sluiceBase + "/v1/chat/completions", Fleet.API_KEY, connections, seconds, processes));
        }
        return legs;
    }

    private static Leg leg(String name, String url, String key, int connections, double seconds, Processes processes)
            throws InterruptedException {
        return leg(name, url, key, connections, seconds, processes, i -> "{\"model\":\"primary\",\"max_tokens\":16,\"user\":\"fd-" + i
            + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Where is my parcel? Order 4711.\"}]}",
            // through Sluice only F4 (the provider's answer) counts: an F1 stand-in would flatter the front door
            r -> key == null || r.headers().firstValue("X-Sluice-Tier").orElse("").equals("F4"));
    }

    /**
     * Chat-API throughput of answers that need no LLM, closed loop: semantic-cache hits (one eligible
     * question asked by everyone, on the instance with the LLM) and FAQ-tier answers (personal questions,
     * never cached, on the instance whose L0 is capped at F1). An answer counts only if it is what was meant.
     */
    static List<Leg> noLlmThroughput(String cacheInstance, String faqInstance, Processes processes, int connections,
            double seconds) throws InterruptedException {
        String chat = "/api/v1/chat";
        String question = "{\"userId\":\"warm\",\"message\":\"退货的运费谁来出？\"}";
        leg("cache warm", cacheInstance + chat, Fleet.API_KEY, 1, 1, processes, i -> question, r -> true);
        List<Leg> legs = new ArrayList<>();
        legs.add(leg("cache hit", cacheInstance + chat, Fleet.API_KEY, connections, seconds, processes,
            i -> "{\"userId\":\"cache-" + i + "\",\"message\":\"退货的运费谁来出？\"}", r -> r.body().contains("\"cached\":true")));
        legs.add(leg("FAQ tier (F1)", faqInstance + chat, Fleet.API_KEY, connections, seconds, processes,
            i -> "{\"userId\":\"faq-" + i + "\",\"message\":\"" + LoadGenerator.MESSAGES.get(i % LoadGenerator.MESSAGES.size())
                .formatted("1390000" + (1000 + i)) + "\"}", r -> r.body().contains("\"tier\":\"F1\"")));
        return legs;
    }

    private static Leg leg(String name, String url, String key, int connections, double seconds, Processes processes,
            java.util.function.IntFunction<String> bodies, java.util.function.Predicate<HttpResponse<String>> meant) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
            .build();
        ConcurrentHistogram latency = new ConcurrentHistogram(TimeUnit.SECONDS.toNanos(60), 2);
        AtomicLong answers = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            String body = bodies.apply(i);
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
            if (key != null) {
                builder.header("Authorization", "Bearer " + key);
            }
            HttpRequest request = builder.build();
            Thread worker = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long started = System.nanoTime();
                    try {
                        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 200 && meant.test(r)) {
                            answers.incrementAndGet();
                            latency.recordValue(Math.min(latency.getHighestTrackableValue(), System.nanoTime() - started));
                        } else {
                            failures.incrementAndGet();
                        }
                    } catch (IOException e) {
                        failures.incrementAndGet();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }, "frontdoor-" + name + "-" + i);
            worker.setDaemon(true);
            workers.add(worker);
        }
        Map<String, Duration> cpuBefore = processes.cpuNow();
        long started = System.nanoTime();
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis((long) seconds + 15));
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        Leg leg = new Leg(name, connections, elapsed, answers.get(), failures.get(), latency, processes.since(cpuBefore));
        ScenarioRunner.log(String.format("frontdoor %s x%d: %.0f answers/s, %d failures, p50 %.1f ms; CPU ms per answer: %s",
            name, connections, leg.perSecond(), leg.failures(), latency.getValueAtPercentile(50) / 1e6, leg.cpuPerAnswer()));
        return leg;
    }

    /**
     * Waits, with no traffic, until the process uses less than a tenth of a core over 5 s (its JIT
     * compilers done), at most {@code max}. A harness pause, not a test's synchronization.
     */
    private static void awaitIdle(String name, Processes processes, Duration max) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + max.toNanos();
        Duration used;
        do {
            Map<String, Duration> before = processes.cpuNow();
            Thread.sleep(5_000);
            used = processes.since(before).get(name);
        } while (used.toMillis() > 500 && System.nanoTime() < deadline);
        ScenarioRunner.log(String.format("frontdoor: %s idle after %.0f s (%.2f cores over the last 5 s)", name,
            (System.nanoTime() - start) / 1e9, used.toMillis() / 5000.0));
    }

    static Map<Integer, Double> ratios(List<Leg> legs) {
        Map<Integer, Double> ratios = new LinkedHashMap<>();
        for (Leg leg : legs) {
            if (leg.target().equals("sluice")) {
                legs.stream().filter(l -> l.target().equals("direct") && l.connections() == leg.connections()).findFirst()
                    .ifPresent(direct -> ratios.put(leg.connections(), leg.perSecond() / direct.perSecond()));
            }
        }
        return ratios;
    }
}
