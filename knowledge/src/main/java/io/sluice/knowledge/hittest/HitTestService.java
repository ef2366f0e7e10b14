package io.sluice.knowledge.hittest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.chain.RetrievalResult;
import io.sluice.knowledge.chain.RetrievalTier;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.chain.TierQuery;
import io.sluice.knowledge.embedding.Embedder;

/**
 * Hit testing for the console: runs a query against every tier independently (no hand-over, no
 * breakers) and shows what each returns, with scores and timings, next to what the chain would do.
 */
public class HitTestService {

    /** One tier's view of the query; error is null when it answered. */
    public record TierReport(String tier, List<Passage> passages, double millis, String error) {
    }

    public record Report(String query, double embedMillis, List<TierReport> tiers, RetrievalResult chain) {
    }

    private final RetrievalChain chain;
    private final Embedder embedder;
    private final ExecutorService executor;

    public HitTestService(RetrievalChain chain, Embedder embedder, ExecutorService executor) {
        this.chain = chain;
        this.embedder = embedder;
        this.executor = executor;
    }

    public Report test(String query, RetrievalPlan plan) {
        long t0 = System.nanoTime();
        float[] vector = null;
        String embedError = null;
        try {
            vector = embedder.embed(query);
        } catch (RuntimeException e) {
            embedError = "embedding failed: " + e.getMessage();
        }
        double embedMillis = (System.nanoTime() - t0) / 1e6;
        TierQuery tq = new TierQuery(query, vector, new SearchFilter(plan.category(), Instant.now()));
        List<TierReport> reports = new ArrayList<>();
        for (RetrievalTier tier : chain.tiers()) {
            long start = System.nanoTime();
            if (vector == null && tier.kind() == io.sluice.knowledge.chain.TierKind.VECTOR) {
                reports.add(new TierReport(tier.name(), List.of(), 0, embedError));
                continue;
            }
            Future<List<Passage>> f = executor.submit(() -> tier.search(tq, plan.topK()));
            try {
                List<Passage> found = f.get(Math.max(1000, plan.timeout(tier.kind()).toMillis() * 5),
                    TimeUnit.MILLISECONDS);
                reports.add(new TierReport(tier.name(), found, (System.nanoTime() - start) / 1e6, null));
            } catch (TimeoutException e) {
                f.cancel(true);
                reports.add(new TierReport(tier.name(), List.of(), (System.nanoTime() - start) / 1e6, "timed out"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (Exception e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                reports.add(new TierReport(tier.name(), List.of(), (System.nanoTime() - start) / 1e6,
                    cause.getClass().getSimpleName() + ": " + cause.getMessage()));
            }
        }
        return new Report(query, embedMillis, reports, chain.retrieve(query, plan));
    }
}
