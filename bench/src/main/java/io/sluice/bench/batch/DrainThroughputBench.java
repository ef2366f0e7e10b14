package io.sluice.bench.batch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import io.sluice.batch.BatchJobsConfiguration;
import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.jobs.drain.DrainJobConfiguration;
import io.sluice.batch.progress.JobProgress;
import io.sluice.batch.queue.NewWorkItem;
import io.sluice.batch.queue.WorkQueue;
import io.sluice.batch.queue.WorkState;

import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Drain throughput against the Little's-law limit of the batch lane (permits ÷ mock latency), with
 * online idle. Needs a real PostgreSQL (SLUICE_DB_URL); run from the repository root (migrations are
 * read from db/migration):
 *
 * <pre>
 * ./mvnw -B -q -pl bench -am package dependency:build-classpath -DskipTests -Dmdep.outputFile=target/bench.cp
 * java -cp "bench/target/classes:$(cat bench/target/bench.cp)" io.sluice.bench.batch.DrainThroughputBench \
 *     items=400 permits=4 latencyMs=200 chunk=32 [report=bench/reports/batch-drain.md]
 * </pre>
 *
 * Target: drain throughput >= 90 % of the limit. The report is appended as a Markdown table row.
 */
@SpringBootApplication(scanBasePackageClasses = BatchJobsConfiguration.class)
@org.springframework.context.annotation.Import(BenchKnowledge.class)
public class DrainThroughputBench {

    static PacedGateway gateway;

    @Bean
    PacedGateway pacedGateway() {
        return gateway;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>(Map.of("items", "400", "permits", "4", "latencyMs", "200", "chunk", "32"));
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            opts.put(kv[0], kv.length > 1 ? kv[1] : "");
        }
        String db = System.getenv("SLUICE_DB_URL");
        if (db == null || db.isBlank()) {
            System.err.println("SLUICE_DB_URL is not set (eval \"$(bash scripts/services-up.sh)\")");
            System.exit(2);
        }
        int items = Integer.parseInt(opts.get("items"));
        int permits = Integer.parseInt(opts.get("permits"));
        long latency = Long.parseLong(opts.get("latencyMs"));
        gateway = new PacedGateway(permits, latency);

        Map<String, Object> p = new HashMap<>();
        p.put("spring.datasource.url", db);
        p.put("spring.flyway.locations", opts.getOrDefault("migrations", "filesystem:db/migration"));
        p.put("spring.main.web-application-type", "none");
        p.put("spring.main.banner-mode", "off");
        p.put("logging.level.root", "WARN");
        p.put("sluice.batch.worker-id", "bench");
        p.put("sluice.batch.drain.chunk-size", opts.get("chunk"));
        p.put("sluice.batch.drain.concurrency", String.valueOf(permits));
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(DrainThroughputBench.class)
                .properties(p).run()) {
            WorkQueue queue = context.getBean(WorkQueue.class);
            String q = "bench-" + UUID.randomUUID().toString().substring(0, 8);
            for (int i = 0; i < items; i++) {
                queue.enqueue(NewWorkItem.of(q, "deferred_answer", "{\"question\": \"bench question " + i + "\"}"));
            }
            JobControl jobs = context.getBean(JobControl.class);
            JobRepository repository = context.getBean(JobRepository.class);
            Instant start = Instant.now();
            JobExecution execution = jobs.launch(DrainJobConfiguration.JOB_NAME, Map.of("queue", q));
            while (repository.getJobExecution(execution.getId()).isRunning()) {
                Thread.sleep(50);
            }
            Duration wall = Duration.between(start, Instant.now());
            JobProgress progress = jobs.progress(execution.getId());
            long done = queue.depth(q).getOrDefault(WorkState.DONE, 0L);
            // the job's own start-to-end time excludes launch overhead but includes the final linger check
            double seconds = Duration.between(progress.startTime(), progress.endTime()).toMillis() / 1000.0;
            double throughput = done / seconds;
            double limit = permits * 1000.0 / latency;
            String row = String.format(Locale.ROOT, "| %s | %d | %d | %d ms | %s | %d | %.1f s | %.2f/s | %.2f/s | %.1f %% | %d |",
                Instant.now(), items, permits, latency, opts.get("chunk"), done, seconds, throughput, limit,
                100 * throughput / limit, gateway.maxInFlight());
            System.out.println("| when | items | permits | latency | chunk | done | job time | throughput | limit | of limit | max in flight |");
            System.out.println(row);
            System.out.printf(Locale.ROOT, "wall time including launch: %.1f s, status %s%n", wall.toMillis() / 1000.0,
                progress.status());
            System.out.printf(Locale.ROOT, "first call to last call: %.1f s; mean call %.0f ms (mock %d ms); "
                + "limit at the measured call time %.2f/s%n", gateway.activeSeconds(), gateway.meanCallSeconds() * 1000,
                latency, permits / gateway.meanCallSeconds());
            if (opts.containsKey("report")) {
                Path report = Path.of(opts.get("report"));
                Files.createDirectories(report.toAbsolutePath().getParent());
                Files.writeString(report, row + System.lineSeparator(),
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            }
        }
    }
}
