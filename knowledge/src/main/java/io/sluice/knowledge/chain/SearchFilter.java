package io.sluice.knowledge.chain;

import java.time.Instant;

/** Restricts retrieval to one category (null = all) and to what is valid at {@code at}. */
public record SearchFilter(String category, Instant at) {

    public static SearchFilter validNow() {
        return new SearchFilter(null, Instant.now());
    }
}
