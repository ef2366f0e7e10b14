package io.sluice.knowledge.faq;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A curated question with its alternative phrasings and the answer customers should get.
 *
 * @param id         database id (0 when not stored)
 * @param key        stable external key (e.g. {@code ret-001}); {@code #<id>} for rows without one
 * @param validFrom  null = always; validUntil null = never expires
 */
public record FaqEntry(long id, String key, String question, List<String> phrasings, String answer, String category,
        List<String> tags, Instant validFrom, Instant validUntil, Instant updatedAt) {

    public FaqEntry {
        phrasings = List.copyOf(phrasings);
        tags = tags == null ? List.of() : List.copyOf(tags);
        if (key == null || key.isBlank()) {
            key = "#" + id;
        }
    }

    /** The short form the F1 slice used. */
    public FaqEntry(long id, String question, List<String> phrasings, String answer, String category) {
        this(id, null, question, phrasings, answer, category, List.of(), null, null, null);
    }

    /** Question first, then phrasings: every text a customer question may match. */
    public List<String> texts() {
        List<String> texts = new ArrayList<>(phrasings.size() + 1);
        texts.add(question);
        texts.addAll(phrasings);
        return texts;
    }

    public boolean validAt(Instant at) {
        return (validFrom == null || !validFrom.isAfter(at)) && (validUntil == null || validUntil.isAfter(at));
    }
}
