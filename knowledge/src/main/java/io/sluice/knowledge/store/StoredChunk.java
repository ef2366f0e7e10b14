package io.sluice.knowledge.store;

import java.time.Instant;

/** A chunk with its document's metadata, as written to every tier. {@code embedding} may be null when read back. */
public record StoredChunk(String documentId, String title, String url, String category, Instant ingestedAt,
        Instant validFrom, Instant validUntil, int ordinal, String heading, String content, float[] embedding) {

    public String indexText() {
        return heading == null || heading.isBlank() ? content : heading + "\n" + content;
    }
}
