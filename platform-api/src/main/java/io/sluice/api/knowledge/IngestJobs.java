package io.sluice.api.knowledge;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.sluice.knowledge.ingest.IngestException;
import io.sluice.knowledge.ingest.IngestProgress;
import io.sluice.knowledge.ingest.IngestResult;

/**
 * Document ingests off the request thread: each runs on a small pool of its own, so a long parse or
 * embedding never holds a Tomcat thread. The upload waits a short while for the result (most documents
 * are done by then: 201/200 as before); a longer one answers 202 with a job id, followed at
 * {@code GET /api/v1/knowledge/documents/jobs/{id}} (stage, done/total, then the result or the problem).
 * A job belongs to the client that started it; finished jobs are kept 10 minutes.
 */
public class IngestJobs implements AutoCloseable {

    private static final Duration KEEP = Duration.ofMinutes(10);

    /** One ingest as its client follows it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static final class Job {
        private final UUID id = UUID.randomUUID();
        @JsonIgnore
        private final long owner;
        private final String externalId;
        private final Instant startedAt = Instant.now();
        private volatile String state = "RUNNING";
        private volatile String stage = "queued";
        private volatile int done;
        private volatile int total;
        private volatile Instant updatedAt = startedAt;
        private volatile IngestResult result;
        private volatile String problem;
        private volatile String detail;
        @JsonIgnore
        private final CompletableFuture<IngestResult> future = new CompletableFuture<>();

        Job(long owner, String externalId) {
            this.owner = owner;
            this.externalId = externalId;
        }

        public UUID getId() {
            return id;
        }

        public String getExternalId() {
            return externalId;
        }

        public String getState() {
            return state;
        }

        public String getStage() {
            return stage;
        }

        public int getDone() {
            return done;
        }

        public int getTotal() {
            return total;
        }

        public Instant getStartedAt() {
            return startedAt;
        }

        public Instant getUpdatedAt() {
            return updatedAt;
        }

        public IngestResult getResult() {
            return result;
        }

        /** The refusal's problem name ({@link IngestException.Problem}) when the ingest failed. */
        public String getProblem() {
            return problem;
        }

        public String getDetail() {
            return detail;
        }

        public String getStatusUrl() {
            return "/api/v1/knowledge/documents/jobs/" + id;
        }

        @JsonIgnore
        public CompletableFuture<IngestResult> future() {
            return future;
        }
    }

    private final ThreadPoolExecutor pool;
    private final Map<UUID, Job> jobs = new ConcurrentHashMap<>();

    public IngestJobs(int workers, int queued) {
        this.pool = new ThreadPoolExecutor(workers, workers, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queued),
            // background work yields to online answers: lowest priority, bounded pool and queue
            Thread.ofPlatform().name("sluice-ingest-", 0).daemon().priority(Thread.MIN_PRIORITY).factory());
    }

    /**
     * Starts an ingest for {@code owner}.
     *
     * @throws java.util.concurrent.RejectedExecutionException when the pool and its queue are full
     */
    public Job start(long owner, String externalId, Function<IngestProgress, IngestResult> work) {
        prune();
        Job job = new Job(owner, externalId);
        pool.execute(() -> {
            try {
                IngestResult result = work.apply((name, stage, done, total) -> {
                    job.stage = stage;
                    job.done = done;
                    job.total = total;
                    job.updatedAt = Instant.now();
                });
                job.result = result;
                job.state = "DONE";
                job.updatedAt = Instant.now();
                job.future.complete(result);
            } catch (RuntimeException e) {
                job.state = "FAILED";
                job.problem = e instanceof IngestException ie ? ie.problem().name() : IngestException.Problem.FAILED.name();
                job.detail = e instanceof IngestException ? e.getMessage() : "the document could not be ingested";
                job.updatedAt = Instant.now();
                job.future.completeExceptionally(e);
            }
        });
        jobs.put(job.id, job);
        return job;
    }

    /** The job if {@code owner} started it. */
    public java.util.Optional<Job> find(UUID id, long owner) {
        Job job = jobs.get(id);
        return job != null && job.owner == owner ? java.util.Optional.of(job) : java.util.Optional.empty();
    }

    public Collection<Job> all() {
        return List.copyOf(jobs.values());
    }

    private void prune() {
        Instant cutoff = Instant.now().minus(KEEP);
        jobs.values().removeIf(j -> !"RUNNING".equals(j.state) && j.updatedAt.isBefore(cutoff));
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
