package io.sluice.knowledge.ingest;

import java.time.Instant;

/** What an ingest did: CREATED, UPDATED (chunks replaced), or UNCHANGED (same content hash: no-op). */
public record IngestResult(String externalId, Outcome outcome, int chunks, int version, Instant ingestedAt,
        String contentHash) {

    public enum Outcome { CREATED, UPDATED, UNCHANGED }
}
