package io.sluice.knowledge.chain;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sluice.knowledge.chain.TierAttempt.Outcome;
import io.sluice.knowledge.embedding.Embedder;

/**
 * The retrieval chain {@code vector → BM25 → FAQ snapshot}. Each tier runs with its own timeout
 * and breaker; a tier that times out, fails, is open, or finds nothing above its threshold hands
 * over to the next one, and the result's trace says which tiers were tried and why the chain moved
 * on. Top-k and thresholds come from the caller's {@link RetrievalPlan}.
 */
public class RetrievalChain {

    /** How a vector tier's skip reads when the query could not be embedded. */
    static final String NO_EMBEDDING = "no query embedding";

    private final List<RetrievalTier> tiers;
    private final Embedder embedder;
    private final ExecutorService executor;
    private final Map<String, TierBreaker> breakers = new LinkedHashMap<>();

    /**
     * @param tiers    in order of preference (e.g. pgvector, lucene-knn, bm25, faq-snapshot)
     * @param executor runs non-inline tiers so a hung store costs at most its timeout
     */
    public RetrievalChain(List<RetrievalTier> tiers, Embedder embedder, ExecutorService executor, int breakerFailures,
            Duration breakerOpenFor) {
        this.tiers = List.copyOf(tiers);
        this.embedder = embedder;
        this.executor = executor;
        for (RetrievalTier tier : tiers) {
            breakers.put(tier.name(), new TierBreaker(breakerFailures, breakerOpenFor, Clock.systemUTC()));
        }
    }

    public List<RetrievalTier> tiers() {
        return tiers;
    }

    public TierBreaker.State breakerState(String tier) {
        return breakers.get(tier).state();
    }

    public RetrievalResult retrieve(String query, RetrievalPlan plan) {
        long start = System.nanoTime();
        float[] vector = null;
        String embedFailure = null;
        try {
            vector = embedder.embed(query);
        } catch (RuntimeException e) {
            embedFailure = NO_EMBEDDING + ": " + describe(e);
        }
        double embedMillis = millisSince(start);
        TierQuery tq = new TierQuery(query, vector, new SearchFilter(plan.category(), Instant.now()));
        List<TierAttempt> trace = new ArrayList<>();
        for (RetrievalTier tier : tiers) {
            if (tier.kind() == TierKind.VECTOR && vector == null) {
                trace.add(new TierAttempt(tier.name(), Outcome.SKIPPED, embedFailure, 0, 0, 0));
                continue;
            }
            String skip = tier.skipReason(tq);
            if (skip != null) {
                trace.add(new TierAttempt(tier.name(), Outcome.SKIPPED, skip, 0, 0, 0));
                continue;
            }
            TierBreaker breaker = breakers.get(tier.name());
            if (!breaker.tryAcquire()) {
                trace.add(new TierAttempt(tier.name(), Outcome.BREAKER_OPEN, "breaker open after repeated failures",
                    0, 0, 0));
                continue;
            }
            TierRun run = run(tier, tq, plan);
            if (run.failed) {
                breaker.onFailure();
            } else {
                breaker.onSuccess();
            }
            trace.add(run.attempt);
            if (run.attempt.outcome() == Outcome.ANSWERED) {
                return new RetrievalResult(query, run.passages, tier.name(), trace, embedMillis, millisSince(start));
            }
        }
        return new RetrievalResult(query, List.of(), null, trace, embedMillis, millisSince(start));
    }

    private record TierRun(TierAttempt attempt, List<Passage> passages, boolean failed) {
    }

    private TierRun run(RetrievalTier tier, TierQuery query, RetrievalPlan plan) {
        Duration timeout = plan.timeout(tier.kind());
        long t0 = System.nanoTime();
        List<Passage> found;
        try {
            if (tier.inline()) {
                found = tier.search(query, plan.topK());
            } else {
                Future<List<Passage>> future = executor.submit(() -> tier.search(query, plan.topK()));
                try {
                    found = future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    future.cancel(true);
                    return new TierRun(new TierAttempt(tier.name(), Outcome.TIMEOUT,
                        "no answer within " + timeout.toMillis() + " ms", millisSince(t0), 0, 0), List.of(), true);
                }
            }
        } catch (ExecutionException e) {
            return failed(tier, e.getCause(), t0);
        } catch (RejectedExecutionException e) {
            return new TierRun(new TierAttempt(tier.name(), Outcome.ERROR, "tier pool saturated", millisSince(t0), 0, 0),
                List.of(), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(tier, e, t0);
        } catch (Exception e) {
            return failed(tier, e, t0);
        }
        double took = millisSince(t0);
        if (found.isEmpty()) {
            return new TierRun(new TierAttempt(tier.name(), Outcome.EMPTY, "nothing found", took, 0, 0), found, false);
        }
        double min = plan.minScore(tier.kind(), found.get(0));
        List<Passage> good = found.stream().filter(p -> p.score() >= plan.minScore(tier.kind(), p)).toList();
        double best = found.get(0).score();
        if (good.isEmpty()) {
            return new TierRun(new TierAttempt(tier.name(), Outcome.BELOW_THRESHOLD,
                String.format("best score %.3f < %.3f", best, min), took, found.size(), best), List.of(), false);
        }
        return new TierRun(new TierAttempt(tier.name(), Outcome.ANSWERED, String.format("best score %.3f", best), took,
            good.size(), best), good, false);
    }

    private static TierRun failed(RetrievalTier tier, Throwable e, long t0) {
        return new TierRun(new TierAttempt(tier.name(), Outcome.ERROR, describe(e), millisSince(t0), 0, 0), List.of(),
            true);
    }

    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = root.getMessage();
        return root.getClass().getSimpleName() + (msg == null ? "" : ": " + (msg.length() > 160
            ? msg.substring(0, 160) + "…" : msg));
    }

    static double millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000.0;
    }
}
