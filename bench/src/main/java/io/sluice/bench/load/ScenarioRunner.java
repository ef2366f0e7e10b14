package io.sluice.bench.load;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sluice.mock.MockCounters;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Runs one {@link ScenarioPlan} against the {@link Fleet}: load, events, samples, then the invariants. */
final class ScenarioRunner {

    static final Duration DEADLINE = Duration.ofSeconds(15);
    private static final int MAX_IN_FLIGHT = 2_000;

    private final Fleet fleet;
    private final MockControl mock;
    private final Platform platform = new Platform();
    private final Scenarios sizing;
    private final int providerCap;
    private final Path chaosScript;
    private final Duration interactiveLease;

    ScenarioRunner(Fleet fleet, MockControl mock, Scenarios sizing, int providerCap, Path chaosScript,
            Duration interactiveLease) {
        this.fleet = fleet;
        this.mock = mock;
        this.sizing = sizing;
        this.providerCap = providerCap;
        this.chaosScript = chaosScript;
        this.interactiveLease = interactiveLease;
    }

    /** What events may do to the system under test. */
    final class Context {
        private final LoadGenerator generator;
        final List<Long> rejectedBeforeEvent = new CopyOnWriteArrayList<>();

        Context(LoadGenerator generator) {
            this.generator = generator;
        }

        MockControl mock() {
            return mock;
        }

        void kill(String instance) throws InterruptedException {
            generator.markDown(fleet.url(instance));
            fleet.kill(instance);
        }

        void chaos(String command, double downSeconds) throws IOException, InterruptedException {
            Process p = new ProcessBuilder("bash", chaosScript.toString(), command, Long.toString((long) downSeconds))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within 90 s");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(command + " failed with exit " + p.exitValue());
            }
        }

        /**
         * Rolling restart, one instance at a time as a Deployment does it: out of the rotation (the load balancer
         * follows readiness), SIGTERM, wait for the exit, start again, back into the rotation when healthy.
         */
        void rollingRestart() throws IOException, InterruptedException {
            for (String name : Fleet.instanceNames()) {
                generator.markDown(fleet.url(name));
                Duration stopped = fleet.stop(name);
                log(String.format("rolling restart: %s stopped gracefully in %.1f s", name, stopped.toMillis() / 1000.0));
                fleet.wipeData(name); // a new pod: empty volume, index rebuilt from the database
                fleet.startInstance(name);
                generator.markUp(fleet.url(name));
                log("rolling restart: " + name + " ready again");
            }
        }

        /** Kills the Sentinel set-up's master (kill -9); Redisson follows the sentinels to the promoted replica. */
        void redisFailover() throws IOException, InterruptedException {
            String dir = System.getenv("SLUICE_REDIS_TOPOLOGY_DIR");
            if (dir == null || dir.isBlank() || System.getenv("SLUICE_REDIS_SENTINEL_MASTER") == null) {
                throw new IllegalStateException("redis-failover needs the Sentinel set-up: SLUICE_BENCH_REDIS=sentinel scripts/bench.sh");
            }
            Process p = new ProcessBuilder("bash", Path.of("scripts", "redis-topology.sh").toString(), "kill-master", dir)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("kill-master failed");
            }
        }

        void startDrain() throws IOException, InterruptedException {
            String base = fleet.url(fleet.liveInstances().get(0));
            HttpResponse<String> r = platform.post(base + "/api/v1/jobs/work-queue-drain/executions", "{}");
            if (r.statusCode() != 202 && r.statusCode() != 409) {
                throw new IllegalStateException("drain launch answered " + r.statusCode() + ": " + r.body());
            }
        }
    }

    ScenarioResult run(ScenarioPlan plan) throws Exception {
        for (String name : Fleet.instanceNames()) {
            if (!fleet.alive(name)) {
                log("restarting instance " + name);
                fleet.startInstance(name);
            }
        }
        Map<String, Object> healthy = new LinkedHashMap<>();
        healthy.put("latency", "FIXED");
        healthy.put("latencyMs", sizing.latencyMs);
        healthy.put("tailProbability", 0.0);
        healthy.put("tailMs", 0);
        healthy.put("hang", false);
        healthy.put("errorRate", 0.0);
        healthy.put("rateLimitRate", 0.0);
        healthy.put("concurrencyCap", providerCap);
        mock.scenario(healthy);
        awaitLevelZero(Duration.ofSeconds(sizing.shortMode ? 30 : 120));
        mock.reset();

        Map<String, Double> tokensBefore = allocationCounters("sluice_gateway_allocation_tokens_total");
        Map<String, Double> decisionsBefore = allocationCounters("sluice_gateway_allocation_decisions_total");
        peakShares.clear();
        List<String> ids = plan.workItems() > 0
            ? submitWork(plan.workItems(), plan.name().equals("summary-flood")) : List.of();
        Timeline timeline = new Timeline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200));
        List<String> targets = fleet.liveInstances().stream().map(fleet::url).toList();
        List<String> events = new CopyOnWriteArrayList<>();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-sampler");
            t.setDaemon(true);
            return t;
        });
        double peakCalls = Double.NaN;
        ScenarioExtras extras = ScenarioExtras.fresh(plan.name());
        extras.startedEpochMs = System.currentTimeMillis();
        try (LoadGenerator generator = new LoadGenerator(timeline, targets, DEADLINE, MAX_IN_FLIGHT)) {
            Context context = new Context(generator);
            offerPolicy(plan, extras).ifPresent(generator::offers);
            generator.onDeadlineMissed(target -> dumpThreadsOnce(plan.name(), target));
            sampler.scheduleAtFixedRate(() -> sample(timeline), 0, 1, TimeUnit.SECONDS);
            sampler.scheduleAtFixedRate(() -> collectAlerts(extras), 2, 5, TimeUnit.SECONDS);
            Thread eventThread = new Thread(() -> runEvents(plan, timeline, context, events), "bench-events");
            eventThread.setDaemon(true);
            eventThread.start();
            generator.run(plan.rate(), plan.seconds(), (long) (plan.seconds() * sizing.surgePeak * 1.5) + 100);
            // events may outlast the load (a rolling restart starts every instance again): bounded wait
            eventThread.join(TimeUnit.SECONDS.toMillis(plan.name().equals("rolling-restart") ? 600 : 120));
            // work first: a drain still running after the load holds batch permits by right, so the
            // permits-back-to-0 check is read once the queue is done (or its bound has passed)
            Map<String, Long> work = ids.isEmpty() ? Map.of() : awaitWork(ids, Duration.ofSeconds(sizing.shortMode ? 90 : 300));
            double permitsLeft = awaitPermitsReleased(plan.killsInstance()
                ? interactiveLease.plusSeconds(15) : Duration.ofSeconds(15));
            sampler.shutdownNow();
            collectAlerts(extras);
            MockCounters counters = mock.counters();
            if (plan.peakFrom() >= 0) {
                peakCalls = callsPerSecond(timeline, plan.peakFrom(), plan.peakTo());
            }
            ScenarioResult result = evaluate(plan, timeline, events, counters, context, permitsLeft, ids.size(), work, peakCalls);
            return new ScenarioResult(result.plan(), result.timeline(), result.checks(), result.events(), result.mock(),
                result.timeToDegrade(), result.timeToRecover(), result.baselineF4(), result.llmCallsPerSecondAtPeak(),
                delta(allocationCounters("sluice_gateway_allocation_tokens_total"), tokensBefore),
                Map.copyOf(peakShares),
                delta(allocationCounters("sluice_gateway_allocation_decisions_total"), decisionsBefore));
        } finally {
            sampler.shutdownNow();
        }
    }

    private final java.util.Set<String> dumped = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * The first request of a scenario that an instance has not answered by its deadline: that instance's threads
     * (virtual ones included) go to the work directory, so the report's violation can be traced to where it waited.
     */
    private void dumpThreadsOnce(String scenario, String target) {
        String instance = fleet.liveInstances().stream().filter(name -> fleet.url(name).equals(target)).findFirst()
            .orElse(null);
        if (instance == null || !dumped.add(scenario + "/" + instance)) {
            return;
        }
        java.nio.file.Path file = fleet.workDir().resolve("threads-" + scenario + "-" + instance + ".json").toAbsolutePath();
        try {
            Process jcmd = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(fleet.process(instance).pid()), "Thread.dump_to_file", "-format=json", file.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (jcmd.waitFor(30, TimeUnit.SECONDS)) {
                log("deadline missed on instance " + instance + ": its threads are in " + file);
            }
        } catch (IOException e) {
            log("could not dump the threads of instance " + instance + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Issue 18: under the surge, 30 % of the requests are SSE streams that answer the fast-mode offer (complaints keep
     * their place; others take the fast answer with probability 0.6, a deferred one with 0.1, else keep their place).
     */
    private static java.util.Optional<LoadGenerator.OfferPolicy> offerPolicy(ScenarioPlan plan, ScenarioExtras extras) {
        return plan.name().equals("surge")
            ? java.util.Optional.of(new LoadGenerator.OfferPolicy(0.3, 0.6, 0.1, extras.offers)) : java.util.Optional.empty();
    }

    /**
     * Issue 18: the alerts each live instance fired during the scenario ({@code GET /api/v1/alerts}: firing ones and
     * the latest notifications), merged by instance, alert and start; polled every 5 s so a killed instance's count too.
     */
    private void collectAlerts(ScenarioExtras extras) {
        for (String name : fleet.liveInstances()) {
            try {
                HttpResponse<String> response = platform.get(fleet.url(name) + "/api/v1/alerts");
                if (response.statusCode() != 200) {
                    continue;
                }
                JsonNode view = JsonMapper.shared().readTree(response.body());
                List<JsonNode> seen = new ArrayList<>();
                view.path("firing").forEach(seen::add);
                view.path("recent").forEach(seen::add);
                for (JsonNode a : seen) {
                    long starts = epochMs(a.path("startsAt"));
                    if (starts < extras.startedEpochMs) {
                        continue;                       // fired before this scenario (a previous one's fault)
                    }
                    String key = name + "|" + a.path("alert").asString("") + "|" + starts;
                    String status = a.path("status").asString("firing");
                    double value = a.path("value").asDouble(Double.NaN);
                    extras.alerts.merge(key, new ScenarioExtras.AlertSeen(name, a.path("alert").asString(""),
                        a.path("severity").asString(""), starts, status, epochMs(a.path("endsAt")), value),
                        (old, now) -> new ScenarioExtras.AlertSeen(old.instance(), old.alert(), old.severity(),
                            old.startsAtEpochMs(), "resolved".equals(old.status()) ? old.status() : now.status(),
                            Math.max(old.endsAtEpochMs(), now.endsAtEpochMs()),
                            Double.isNaN(old.value()) ? now.value() : Math.max(old.value(), Double.isNaN(now.value()) ? old.value() : now.value())));
                }
            } catch (IOException | RuntimeException e) {
                // an instance restarting or killed: its alerts so far are kept
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static long epochMs(JsonNode node) {
        if (node.isNumber()) {                          // written as a number: seconds (with a fraction) or millis
            double v = node.asDouble();
            return (long) (v < 1e11 ? v * 1000 : v);
        }
        String instant = node.isString() ? node.asString() : null;
        if (instant == null || instant.isBlank()) {
            return -1;
        }
        try {
            return java.time.Instant.parse(instant).toEpochMilli();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** Warms each live instance's code paths (JIT, pools, caches of the embedder) before anything is measured. */
    void warmUp(int perInstance) throws IOException, InterruptedException {
        mock.scenario(Map.of("latency", "FIXED", "latencyMs", 0)); // warming code paths, not waiting for the provider
        for (String name : fleet.liveInstances()) {
            for (int i = 0; i < perInstance; i++) {
                String message = LoadGenerator.MESSAGES.get(i % LoadGenerator.MESSAGES.size()).formatted("1380000" + (1000 + i));
                try {
                    platform.post(fleet.url(name) + "/api/v1/chat", JsonMapper.shared().writeValueAsString(
                        Map.of("userId", "warm-up-" + i, "message", message)));
                } catch (IOException slow) {
                    // a warm-up answer may be slow or lost; it is not measured
                }
            }
        }
    }

    /** Each scenario starts from L0 (the previous one's fault may still be fading), waiting a bounded time. */
    private void awaitLevelZero(Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        double level = Double.NaN;
        while (System.nanoTime() < deadline) {
            level = Double.NaN;
            for (String name : fleet.liveInstances()) {
                level = Platform.sum(platform.metrics(fleet.managementUrl(name)), "sluice_degradation_level");
                if (!Double.isNaN(level)) {
                    break;
                }
            }
            if (level == 0) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(500); // polling a gauge of another process, bounded
        }
        log("level still " + level + " after " + bound.toSeconds() + " s; starting anyway");
    }

    private void runEvents(ScenarioPlan plan, Timeline timeline, Context context, List<String> events) {
        List<ScenarioPlan.Event> ordered = new ArrayList<>(plan.events());
        ordered.sort(Comparator.comparingDouble(ScenarioPlan.Event::at));
        for (ScenarioPlan.Event event : ordered) {
            long at = timeline.startNanos() + (long) (event.at() * 1e9);
            long wait = at - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // the event's moment in the scenario
            }
            try {
                context.rejectedBeforeEvent.add(mock.counters().rejected());
                event.action().run(context);
                events.add(String.format("%.1f s: %s (done at %.1f s)", event.at(), event.label(),
                    timeline.secondsSinceStart(System.nanoTime())));
            } catch (Exception e) {
                events.add(String.format("%.1f s: %s FAILED: %s", event.at(), event.label(), e));
            }
        }
    }

    private void sample(Timeline timeline) {
        try {
            double second = timeline.secondsSinceStart(System.nanoTime());
            double permits = Double.NaN;
            double batch = Double.NaN;
            double level = Double.NaN;
            double batchQueue = Double.NaN;
            double admissionQueue = Double.NaN;
            for (String name : fleet.liveInstances()) {
                Map<String, Double> m = platform.metrics(fleet.managementUrl(name));
                if (m.isEmpty()) {
                    continue;
                }
                double waiting = Platform.sum(m, "sluice_chat_admission_waiting"); // per instance: summed
                if (!Double.isNaN(waiting)) {
                    admissionQueue = (Double.isNaN(admissionQueue) ? 0 : admissionQueue) + waiting;
                }
                if (Double.isNaN(level)) {
                    // cluster-wide gauges: any live instance tells
                    permits = Platform.sum(m, "sluice_gateway_permits_used", "lane=\"interactive\"");
                    batch = Platform.sum(m, "sluice_gateway_permits_used", "lane=\"batch\"");
                    level = Platform.sum(m, "sluice_degradation_level");
                    batchQueue = Platform.sum(m, "sluice_batch_queue_depth", "state=\"QUEUED\"");
                    // the token window is cluster-wide too: remember each type's highest part of it
                    m.forEach((key, value) -> {
                        if (key.startsWith("sluice_gateway_allocation_share{") && !value.isNaN()) {
                            peakShares.merge(label(key, "type"), value, Math::max);
                        }
                    });
                }
            }
            MockCounters c = mock.counters();
            timeline.sample(new Timeline.Sample(second, permits, batch, level, admissionQueue, batchQueue, c.served(),
                c.requests(), c.rejected(), c.inFlight()));
        } catch (RuntimeException e) {
            // a sample lost (an instance restarting) is a gap in the chart, not a failure
        }
    }

    private double awaitPermitsReleased(Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        double used = Double.NaN;
        while (System.nanoTime() < deadline) {
            used = 0;
            boolean read = false;
            for (String name : fleet.liveInstances()) {
                Map<String, Double> m = platform.metrics(fleet.managementUrl(name));
                double v = Platform.sum(m, "sluice_gateway_permits_used");
                if (!Double.isNaN(v)) {
                    used = Math.max(used, v);
                    read = true;
                }
            }
            if (read && used == 0) {
                return 0;
            }
            TimeUnit.MILLISECONDS.sleep(500); // polling a gauge of another process, bounded
        }
        return used;
    }

    /** Each type's highest part of the token window seen by the sampler (cluster-wide gauge). */
    private final Map<String, Double> peakShares = new java.util.concurrent.ConcurrentHashMap<>();

    /** A counter of the token allocation summed over live instances, per "type" (or "type/outcome"). */
    private Map<String, Double> allocationCounters(String name) {
        Map<String, Double> sums = new java.util.TreeMap<>();
        for (String instance : fleet.liveInstances()) {
            platform.metrics(fleet.managementUrl(instance)).forEach((key, value) -> {
                if (key.startsWith(name + "{") && !value.isNaN()) {
                    String outcome = label(key, "outcome");
                    sums.merge(label(key, "type") + (outcome.isEmpty() ? "" : "/" + outcome), value, Double::sum);
                }
            });
        }
        return sums;
    }

    private static Map<String, Double> delta(Map<String, Double> after, Map<String, Double> before) {
        Map<String, Double> d = new java.util.TreeMap<>();
        after.forEach((k, v) -> d.put(k, v - before.getOrDefault(k, 0.0)));
        return d;
    }

    /** The value of one label in a Prometheus series key ({@code name{a="x",b="y"}}), "" when absent. */
    static String label(String key, String label) {
        int at = key.indexOf(label + "=\"");
        if (at < 0) {
            return "";
        }
        int from = at + label.length() + 2;
        int to = key.indexOf('"', from);
        return to < 0 ? "" : key.substring(from, to);
    }

    private List<String> submitWork(int count, boolean summaries) throws IOException, InterruptedException {
        List<String> ids = new ArrayList<>();
        String base = fleet.url(fleet.liveInstances().get(0));
        long document = summaries ? documentToSummarize(base) : 0;
        for (int i = 0; i < count; i++) {
            String body = JsonMapper.shared().writeValueAsString(summaries
                ? Map.of("type", "summarize_document", "payload", Map.of("documentId", document, "maxWords", 120),
                    "idempotencyKey", "bench-" + System.nanoTime() + "-" + i)
                : Map.of("type", "deferred_answer",
                "payload", Map.of("question", "退货的运费谁来出？（批量 " + i + "）"), "idempotencyKey",
                "bench-" + System.nanoTime() + "-" + i));
            HttpResponse<String> r = platform.post(base + "/api/v1/tasks", body);
            if (r.statusCode() != 202) {
                throw new IllegalStateException("task submission answered " + r.statusCode() + ": " + r.body());
            }
            ids.add(JsonMapper.shared().readTree(r.body()).path("id").asString());
        }
        log("submitted " + ids.size() + " work items");
        return ids;
    }

    /** A document of the sample knowledge base: the first document source of an online answer (else id 1). */
    private long documentToSummarize(String base) throws IOException, InterruptedException {
        HttpResponse<String> r = platform.post(base + "/api/v1/chat",
            "{\"userId\":\"bench-summary-flood\",\"message\":\"退款多久到账\"}");
        if (r.statusCode() == 200) {
            for (var source : JsonMapper.shared().readTree(r.body()).path("sources")) {
                if ("document".equals(source.path("kind").asString(""))) {
                    try {
                        return Long.parseLong(source.path("id").asString(""));
                    } catch (NumberFormatException e) {
                        // not a numeric id: try the next source
                    }
                }
            }
        }
        return 1;
    }

    private Map<String, Long> awaitWork(List<String> ids, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        Map<String, String> states = new LinkedHashMap<>();
        boolean relaunched = false;
        while (true) {
            String base = fleet.url(fleet.liveInstances().get(0));
            for (String id : ids) {
                String known = states.get(id);
                if ("DONE".equals(known) || "DEAD".equals(known)) {
                    continue;
                }
                HttpResponse<String> r = platform.get(base + "/api/v1/tasks/" + id);
                JsonNode view = r.statusCode() == 200 ? JsonMapper.shared().readTree(r.body()) : null;
                states.put(id, view == null ? "MISSING(" + r.statusCode() + ")" : view.path("state").asString());
            }
            long open = states.values().stream().filter(s -> !s.equals("DONE") && !s.equals("DEAD")).count();
            if (open == 0 || System.nanoTime() > deadline) {
                break;
            }
            if (!relaunched) {
                // a drain ends when the queue is empty for its linger; items retried later need another run
                relaunched = true;
                new Context(null).startDrain();
            }
            TimeUnit.SECONDS.sleep(1); // polling task states of another process, bounded
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        states.values().forEach(s -> counts.merge(s, 1L, Long::sum));
        return counts;
    }

    private static double callsPerSecond(Timeline timeline, double from, double to) {
        Timeline.Sample first = null;
        Timeline.Sample last = null;
        for (Timeline.Sample s : timeline.samples()) {
            if (s.second() >= from && first == null) {
                first = s;
            }
            if (s.second() <= to) {
                last = s;
            }
        }
        if (first == null || last == null || last.second() <= first.second()) {
            return Double.NaN;
        }
        return (last.mockServed() - first.mockServed()) / (last.second() - first.second());
    }

    private ScenarioResult evaluate(ScenarioPlan plan, Timeline timeline, List<String> events, MockCounters counters,
            Context context, double permitsLeft, int submitted, Map<String, Long> work, double peakCalls) {
        List<ScenarioResult.Check> checks = new ArrayList<>();
        checks.add(new ScenarioResult.Check("provider concurrency ≤ cap", counters.maxConcurrentSeen() <= providerCap,
            "maxConcurrentSeen " + counters.maxConcurrentSeen() + " (cap " + providerCap + ")"));

        long sluice429 = counters.rejected();
        String how = "all provider 429s";
        if (plan.rateLimitStorm() && context.rejectedBeforeEvent.size() >= 2) {
            // the storm's own 429s are the mock's doing; count those before it began and after it ended
            long atStart = context.rejectedBeforeEvent.get(0);
            long atEnd = context.rejectedBeforeEvent.get(1);
            sluice429 = atStart + (counters.rejected() - atEnd);
            how = "provider 429s outside the storm (storm's own: " + (atEnd - atStart) + ")";
        }
        checks.add(new ScenarioResult.Check("provider 429s caused by Sluice = 0", sluice429 == 0, how + ": " + sluice429));

        List<Outcome> violations = timeline.violations();
        int count = timeline.count(Outcome.Kind.VIOLATION);
        String examples = violations.stream().limit(3).map(Outcome::detail).toList().toString();
        checks.add(new ScenarioResult.Check("every request: tier, or 429/503 + Retry-After, within "
            + DEADLINE.toSeconds() + " s", count == 0 && timeline.notSentCount() == 0,
            timeline.total() + " requests, " + count + " violations" + (count > 0 ? " e.g. " + examples : "")
                + (timeline.notSentCount() > 0 ? ", " + timeline.notSentCount() + " not sent (generator limit)" : "")
                + (timeline.count(Outcome.Kind.LOST_WITH_KILLED_INSTANCE) > 0
                    ? ", " + timeline.count(Outcome.Kind.LOST_WITH_KILLED_INSTANCE) + " in flight on the killed instance" : "")));
        long fiveXx = violations.stream().filter(o -> o.status() >= 500).count();
        checks.add(new ScenarioResult.Check("no 5xx (other than 503 + Retry-After)", fiveXx == 0, fiveXx + " answers"));
        checks.add(new ScenarioResult.Check("permits in use back to 0", permitsLeft == 0,
            Double.isNaN(permitsLeft) ? "not readable" : "in use at the end: " + (long) permitsLeft));
        if (submitted > 0) {
            long done = work.getOrDefault("DONE", 0L);
            long dead = work.getOrDefault("DEAD", 0L);
            checks.add(new ScenarioResult.Check("work items submitted = completed + dead-lettered", done + dead == submitted,
                submitted + " submitted, " + done + " done, " + dead + " dead, other: " + work));
        }
        double baseline = plan.hasFault() ? timeline.f4Share(0, plan.faultStart()) : timeline.f4Share(0, plan.seconds());
        double degrade = Double.NaN;
        double recover = Double.NaN;
        if (plan.hasFault()) {
            degrade = timeline.firstDegradedAnswerAfter(plan.faultStart());
            for (int s = (int) Math.ceil(plan.faultEnd()); s + 3 <= plan.seconds(); s++) {
                double share = timeline.f4Share(s, s + 3);
                if (!Double.isNaN(share) && share >= baseline * 0.8) {
                    recover = Math.max(0, s - plan.faultEnd());
                    break;
                }
            }
            boolean ok = !Double.isNaN(baseline) && baseline > 0 && !Double.isNaN(recover) && recover <= plan.recoveryBound();
            checks.add(new ScenarioResult.Check(String.format("F4 share back to ≥ 80 %% of baseline within %.0f s of the fault's end",
                plan.recoveryBound()), ok, String.format("baseline %.0f %%, back after %s", baseline * 100,
                    Double.isNaN(recover) ? "— (not within the run)" : String.format("%.0f s", recover))));
        }
        return new ScenarioResult(plan, timeline, checks, events, counters, degrade, recover, baseline, peakCalls, Map.of(),
            Map.of(), Map.of());
    }

    private static final long STARTED = System.nanoTime();

    static void log(String message) {
        System.out.printf("[bench %4ds] %s%n", (System.nanoTime() - STARTED) / 1_000_000_000L, message);
    }
}
