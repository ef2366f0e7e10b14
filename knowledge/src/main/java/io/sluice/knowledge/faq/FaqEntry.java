package io.sluice.knowledge.faq;

import java.util.List;

/** A curated question with its alternative phrasings and the answer customers should get. */
public record FaqEntry(long id, String question, List<String> phrasings, String answer, String category) {

    public FaqEntry {
        phrasings = List.copyOf(phrasings);
    }
}
