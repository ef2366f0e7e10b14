package io.sluice.knowledge.chain;

import java.time.Instant;

/** How fresh a passage is: when it was ingested (or the snapshot built) and until when it is valid. */
public record Freshness(Instant ingestedAt, Instant validUntil) {
}
