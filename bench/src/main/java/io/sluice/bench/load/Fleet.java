package io.sluice.bench.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The processes under test: the mock provider and the platform instances (three by default) in external mode, each its
 * own JVM on loopback. Every start waits a bounded time; {@link #close()} (also run by a shutdown hook)
 * stops every child it started, forcibly if it does not stop within 20 s.
 */
final class Fleet implements AutoCloseable {

    static final String API_KEY = "sluice-bench-key-0123456789abcdef";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);

    private final HarnessOptions options;
    private final Map<String, String> overrides;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Process> children = new ArrayList<>();
    private final Map<String, Process> instances = new LinkedHashMap<>();
    private Process mock;
    private final Thread hook = new Thread(this::close, "bench-fleet-stop");
    /** The instances' heap bound: small for the chaos fleet (three instances on one box), run.sh's for capacity. */
    private String maxHeap = "640m";

    Fleet(HarnessOptions options, Map<String, String> overrides) {
        this.options = options;
        this.overrides = Map.copyOf(overrides);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    int mockPort() {
        return options.basePort();
    }

    String mockUrl() {
        return "http://127.0.0.1:" + mockPort();
    }

    /** The instances: a, b, c by default (a fleet of three); SLUICE_BENCH_INSTANCES = 2 to 4. */
    static List<String> instanceNames() {
        String configured = System.getenv("SLUICE_BENCH_INSTANCES");
        int n = configured == null || configured.isBlank() ? 3 : Integer.parseInt(configured.trim());
        if (n < 2 || n > 4) {
            throw new IllegalArgumentException("SLUICE_BENCH_INSTANCES must be 2 to 4, was " + n);
        }
        return List.of("a", "b", "c", "d").subList(0, n);
    }

    int port(String instance) {
        return options.basePort() + 1 + instanceNames().indexOf(instance);
    }

    /** The instance's management port (health, Prometheus): loopback, base+5 onwards. */
    int managementPort(String instance) {
        return options.basePort() + 5 + instanceNames().indexOf(instance);
    }

    String managementUrl(String instance) {
        return "http://127.0.0.1:" + managementPort(instance);
    }

    String url(String instance) {
        return "http://127.0.0.1:" + port(instance);
    }

    /** Where the fleet's logs (and the harness's diagnostics) go. */
    Path workDir() {
        return options.workDir();
    }

    /** The instance's process, to read its CPU time. */
    ProcessHandle process(String instance) {
        return instances.get(instance).toHandle();
    }

    ProcessHandle mockProcess() {
        return mock.toHandle();
    }

    boolean alive(String instance) {
        Process p = instances.get(instance);
        return p != null && p.isAlive();
    }

    List<String> liveInstances() {
        return instanceNames().stream().filter(this::alive).toList();
    }

    void startMock() throws IOException, InterruptedException {
        Files.createDirectories(options.workDir());
        List<String> command = List.of(java(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
            "io.sluice.mock.MockProviderMain", Integer.toString(mockPort()), "42");
        mock = spawn(command, Map.of(), options.workDir().resolve("mock.log"));
        awaitUp(mock, URI.create(mockUrl() + "/_mock/counters"), "mock provider");
    }

    /** The Portkey gateway's port (capacity legs): base+9. */
    int portkeyPort() {
        return options.basePort() + 9;
    }

    /**
     * Starts the Portkey gateway (node, installed under {@code dir} by scripts/bench.sh) on
     * {@link #portkeyPort()} and waits until it answers; its process, to read its CPU time.
     */
    ProcessHandle startPortkey(Path dir) throws IOException, InterruptedException {
        Path server = dir.resolve("node_modules/@portkey-ai/gateway/build/start-server.js");
        List<String> command = List.of("node", server.toString(), "--port=" + portkeyPort(), "--headless");
        Process portkey = spawn(command, Map.of("NODE_ENV", "production"), options.workDir().resolve("portkey.log"));
        awaitUp(portkey, URI.create("http://127.0.0.1:" + portkeyPort() + "/"), "Portkey gateway");
        return portkey.toHandle();
    }

    /** Sets the heap bound of the instances started from now on (e.g. {@code 1g}). */
    Fleet maxHeap(String bound) {
        this.maxHeap = bound;
        return this;
    }

    /** scripts/run.sh's JVM options (SLUICE_JAVA_DEFAULTS, exported by scripts/bench.sh): the instances run as shipped. */
    static List<String> jvmDefaults() {
        String defaults = System.getenv().getOrDefault("SLUICE_JAVA_DEFAULTS", "").trim();
        return defaults.isEmpty() ? List.of() : List.of(defaults.split("\\s+"));
    }

    /** Starts the instance (its own data directory, shared database and Redis) and waits until healthy. */
    void startInstance(String name) throws IOException, InterruptedException {
        startInstance(name, Map.of());
    }

    /** As {@link #startInstance(String)}, with settings for this instance only on top of the fleet's. */
    void startInstance(String name, Map<String, String> extra) throws IOException, InterruptedException {
        Path data = options.workDir().resolve("instance-" + name);
        Files.createDirectories(data);
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(jvmDefaults());
        command.addAll(List.of("-Xmx" + maxHeap, "-XX:+ExitOnOutOfMemoryError")); // after the defaults: this -Xmx wins
        // e.g. SLUICE_BENCH_JVM_OPTS="-XX:StartFlightRecording=filename=/tmp/sluice.jfr,settings=profile" to profile
        String jvmOptions = System.getenv().getOrDefault("SLUICE_BENCH_JVM_OPTS", "").trim();
        if (!jvmOptions.isEmpty()) {
            command.addAll(List.of(jvmOptions.split("\\s+")));
        }
        command.addAll(List.of("-jar", options.jar().toAbsolutePath().toString()));
        Map<String, String> settings = new LinkedHashMap<>(overrides);
        settings.putAll(extra);
        settings.forEach((key, value) -> command.add("--" + key + "=" + value));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SLUICE_PORT", Integer.toString(port(name)));
        env.put("SLUICE_MANAGEMENT_PORT", Integer.toString(managementPort(name)));
        env.put("SLUICE_DATA_DIR", data.toAbsolutePath().toString());
        env.put("SLUICE_DB_URL", options.dbUrl());
        env.put("SLUICE_REDIS_URL", options.redisUrl());
        env.put("SLUICE_LLM_BASE_URL", mockUrl() + "/v1");
        env.put("SLUICE_LLM_API_KEY", "bench-provider-key");
        env.put("SLUICE_DEMO_API_KEY", API_KEY);
        // the harness submits tasks and launches the drain job with the demo key besides chatting
        // … and reads each instance's alerts (GET /api/v1/alerts is an operator call: admin)
        env.put("SLUICE_DEMO_SCOPES", "chat,openai,tasks,jobs,admin");
        env.put("SLUICE_WORKER_ID", "bench-" + name);
        Path log = options.workDir().resolve("instance-" + name + ".log");
        long logStart = Files.exists(log) ? Files.size(log) : 0;
        Process process = spawn(command, env, log);
        instances.put(name, process);
        awaitUp(process, URI.create(managementUrl(name) + "/actuator/health"), "instance " + name);
        awaitKnowledge(process, log, logStart, name);
    }

    /**
     * The sample knowledge base loads (first instance) or the local index is rebuilt from the database
     * (the others) in the background after start; scenarios measure the platform after that, not
     * competing with it. The only sign is the bootstrap's log line.
     */
    private void awaitKnowledge(Process process, Path log, long from, String name) throws IOException, InterruptedException {
        List<String> markers = List.of("sample knowledge base loaded", "local knowledge index rebuilt",
            "knowledge bootstrap stopped");
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            String text;
            try (var in = Files.newInputStream(log)) {
                in.skipNBytes(from);
                text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            for (String marker : markers) {
                if (text.contains(marker)) {
                    ScenarioRunner.log("instance " + name + ": " + marker);
                    return;
                }
            }
            TimeUnit.SECONDS.sleep(1); // polling a child's log, bounded by the deadline
        }
        throw new IllegalStateException("instance " + name + ": knowledge bootstrap did not finish within " + START_TIMEOUT);
    }

    /**
     * Graceful stop (SIGTERM, as Kubernetes sends): readiness goes down first, in-flight answers and streams get
     * the graceful-shutdown phase to finish, permits are released. Returns how long the instance took to exit.
     */
    Duration stop(String name) throws InterruptedException {
        Process p = instances.get(name);
        long started = System.nanoTime();
        if (p != null && p.isAlive()) {
            p.destroy();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException("instance " + name + " did not stop within 60 s of SIGTERM");
            }
        }
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /**
     * Drops a stopped instance's local state (Lucene index, snapshots), as a new pod starts with an empty
     * volume: its next start rebuilds the index from the database.
     */
    void wipeData(String name) throws IOException {
        Path data = options.workDir().resolve("instance-" + name);
        if (Files.exists(data)) {
            try (var paths = Files.walk(data)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** Whether the instance's readiness group answers UP (false while starting or shutting down). */
    boolean ready(String name) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(managementUrl(name) + "/actuator/health/readiness"))
                .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** kill -9: the instance gets no chance to release anything. */
    void kill(String name) throws InterruptedException {
        Process p = instances.get(name);
        if (p != null) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Process spawn(List<String> command, Map<String, String> env, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        Process process = builder.start();
        synchronized (children) {
            children.add(process);
        }
        return process;
    }

    private void awaitUp(Process process, URI probe, String what) throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(what + " exited with " + process.exitValue() + " while starting (log in "
                    + options.workDir() + ")");
            }
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(5)).GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            TimeUnit.MILLISECONDS.sleep(500); // polling a child process's start, bounded by the deadline
        }
        throw new IllegalStateException(what + " did not become healthy within " + START_TIMEOUT);
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Override
    public void close() {
        List<Process> all;
        synchronized (children) {
            all = List.copyOf(children);
            children.clear();
        }
        all.forEach(Process::destroy);
        for (Process p : all) {
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // called from the hook itself
        }
    }
}
