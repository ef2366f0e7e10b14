package io.sluice.batch.faq;

import java.util.ArrayList;
import java.util.List;

import io.sluice.batch.jobs.maintenance.MaintenanceProgress;
import io.sluice.batch.jobs.maintenance.MaintenanceWork;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code faq-snapshot-rebuild} job's work: mine candidates (proposed for review only), build a new
 * versioned snapshot from the FAQ table (which holds reviewed candidates once approved or merged),
 * validate it, and only then publish it on every instance. Validation: the knowledge checks (entries
 * present, embedding model and dimension, finite vectors, every entry has a question and answer) plus
 * entry count = FAQ rows, count not below {@code minCountRatio} of the current snapshot, and self-hit
 * (each entry's own question retrieves it first) at least {@code minSelfHitRate}. A failure throws, so
 * the job fails with the reasons and nothing is published: the old snapshot keeps answering.
 */
public class FaqSnapshotRebuild implements MaintenanceWork {

    public static final String JOB_NAME = "faq-snapshot-rebuild";

    private static final Logger log = LoggerFactory.getLogger(FaqSnapshotRebuild.class);

    /** Thrown when a built snapshot is not published. */
    public static class ValidationFailedException extends RuntimeException {

        public ValidationFailedException(String message) {
            super(message);
        }
    }

    private final FaqCandidateMiner miner;
    private final FaqRepository faq;
    private final FaqSnapshotService snapshots;
    private final FaqSnapshotDistribution distribution;
    private final double minSelfHitRate;
    private final double minCountRatio;

    public FaqSnapshotRebuild(FaqCandidateMiner miner, FaqRepository faq, FaqSnapshotService snapshots,
            FaqSnapshotDistribution distribution, double minSelfHitRate, double minCountRatio) {
        this.miner = miner;
        this.faq = faq;
        this.snapshots = snapshots;
        this.distribution = distribution;
        this.minSelfHitRate = minSelfHitRate;
        this.minCountRatio = minCountRatio;
    }

    @Override
    public String jobName() {
        return JOB_NAME;
    }

    @Override
    public boolean clusterWide() {
        return true;
    }

    @Override
    public void run(MaintenanceProgress progress) {
        progress.progress(0, 4);
        try {
            miner.mine();
        } catch (RuntimeException e) {
            // mining only proposes; a failure there must not hold back the snapshot
            log.warn("FAQ candidate mining failed: {}", e.toString());
        }
        progress.progress(1, 4);
        if (progress.stopRequested()) {
            return;
        }
        List<FaqEntry> entries = faq.findAll();
        FaqSnapshot built = snapshots.build(entries);
        progress.progress(2, 4);
        if (progress.stopRequested()) {
            return;
        }
        FaqSnapshotService.Validation v = snapshots.validate(built);
        List<String> problems = new ArrayList<>(v.problems());
        if (built.size() != entries.size()) {
            problems.add("snapshot has " + built.size() + " entries, the FAQ table " + entries.size());
        }
        int before = snapshots.current().size();
        if (before > 0 && built.size() < minCountRatio * before) {
            problems.add("snapshot has " + built.size() + " entries, under " + Math.round(minCountRatio * 100)
                + "% of the current " + before);
        }
        if (built.size() > 0 && v.selfHitRate() < minSelfHitRate) {
            problems.add(String.format("self-hit@1 %.3f below %.2f", v.selfHitRate(), minSelfHitRate));
        }
        progress.progress(3, 4);
        if (!problems.isEmpty()) {
            log.warn("FAQ snapshot v{} not published: {}", built.version(), problems);
            throw new ValidationFailedException("FAQ snapshot v" + built.version() + " failed validation: "
                + String.join("; ", problems));
        }
        distribution.publish(built, v.selfHitRate());
        progress.progress(4, 4);
        log.info("FAQ snapshot v{} published cluster-wide ({} entries, self-hit@1 {})", built.version(), built.size(),
            v.selfHitRate());
    }
}
