package io.sluice.bench.load;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code scripts/bench.sh} passes to {@link LoadHarness}.
 *
 * @param shortMode   every scenario at most 20 s (CI smoke and quick local runs)
 * @param smoke       CI: the report goes to {@code bench/target/bench-report}, never to docs/
 * @param scenarios   scenario names in run order (empty = the mode's default list)
 * @param jar         the platform's executable jar
 * @param outDir      where benchmarks.md and the charts go
 * @param workDir     logs and per-instance data directories
 * @param dbUrl       JDBC URL of PostgreSQL 17 + pgvector both instances share
 * @param redisUrl    Redis URL both instances share
 * @param chaosScript script that restarts Redis / PostgreSQL ({@code scripts/bench-chaos.sh})
 * @param basePort    mock on basePort, instances on basePort+1.. (up to 4), their management ports on basePort+5..
 */
record HarnessOptions(boolean shortMode, boolean smoke, List<String> scenarios, Path jar, Path outDir, Path workDir,
        String dbUrl, String redisUrl, Path chaosScript, int basePort) {

    static HarnessOptions parse(String[] args) {
        boolean shortMode = false;
        boolean smoke = false;
        List<String> scenarios = new ArrayList<>();
        Path jar = Path.of("app/target/sluice.jar");
        Path out = null;
        Path work = Path.of("bench/target/bench-work");
        Path chaos = Path.of("scripts/bench-chaos.sh");
        int basePort = 18480;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--short" -> shortMode = true;
                case "--smoke" -> {
                    smoke = true;
                    shortMode = true;
                }
                case "--scenarios" -> {
                    for (String name : value(args, ++i, arg).split(",")) {
                        if (!name.isBlank()) {
                            scenarios.add(name.strip());
                        }
                    }
                }
                case "--jar" -> jar = Path.of(value(args, ++i, arg));
                case "--out" -> out = Path.of(value(args, ++i, arg));
                case "--work" -> work = Path.of(value(args, ++i, arg));
                case "--chaos-script" -> chaos = Path.of(value(args, ++i, arg));
                case "--base-port" -> basePort = Integer.parseInt(value(args, ++i, arg));
                default -> throw new IllegalArgumentException("unknown argument " + arg
                    + "; usage: [--short] [--smoke] [--scenarios a,b] [--jar path] [--out dir] [--work dir] [--base-port n]");
            }
        }
        if (out == null) {
            out = smoke ? Path.of("bench/target/bench-report") : Path.of("docs");
        }
        String db = env("SLUICE_DB_URL");
        String redis = env("SLUICE_REDIS_URL");
        for (String name : scenarios) {
            if (!Scenarios.NAMES.contains(name)) {
                throw new IllegalArgumentException("unknown scenario '" + name + "'; known: " + Scenarios.NAMES);
            }
        }
        return new HarnessOptions(shortMode, smoke, List.copyOf(scenarios), jar, out, work, db, redis, chaos, basePort);
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is not set: the harness runs the platform in external mode "
                + "(scripts/bench.sh sets it from scripts/services-up.sh)");
        }
        return value;
    }
}
