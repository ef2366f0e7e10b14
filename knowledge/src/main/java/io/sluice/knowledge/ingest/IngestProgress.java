package io.sluice.knowledge.ingest;

/** Progress of a long ingest: called as stages advance (parse, chunk, embed batches, store, index). */
@FunctionalInterface
public interface IngestProgress {

    IngestProgress NONE = (job, stage, done, total) -> { };

    void update(String job, String stage, int done, int total);
}
