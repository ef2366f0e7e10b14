package io.sluice.knowledge.faq;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.sluice.knowledge.embedding.Embedder;

/**
 * The F1 FAQ lookup: the best entry of the published snapshot for a question, by embedding
 * similarity and keywords, with nothing remote involved (the embedding model runs in process; if
 * it fails the match falls back to keywords alone). Latin-script questions are matched with the English
 * model when the snapshot carries its vectors.
 */
public class FaqIndex {

    private final FaqSnapshotService snapshots;
    private final Embedder embedder;
    private final double minScore;

    public FaqIndex(FaqSnapshotService snapshots, Embedder embedder, double minScore) {
        this.snapshots = snapshots;
        this.embedder = embedder;
        this.minScore = minScore;
    }

    public Optional<FaqMatch> best(String question) {
        List<FaqMatch> top = top(question, 1);
        return top.isEmpty() || top.get(0).score() < minScore ? Optional.empty() : Optional.of(top.get(0));
    }

    public List<FaqMatch> top(String question, int k) {
        if (question == null || question.isBlank()) {
            return List.of();
        }
        float[] vector;
        try {
            vector = embedder.embed(question);
        } catch (RuntimeException e) {
            vector = null;
        }
        return snapshots.match(snapshots.current(), question, vector, k, null, Instant.now());
    }

    /** Entries in the published snapshot (0 before one is published). */
    public int size() {
        return snapshots.current().size();
    }

    public long version() {
        return snapshots.current().version();
    }
}
