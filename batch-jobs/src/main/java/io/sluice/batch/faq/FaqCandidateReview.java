package io.sluice.batch.faq;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.ingest.IngestionService;

/**
 * A reviewer's decision on a candidate. Approve creates a FAQ entry (question + the wordings seen as
 * phrasings + the reviewer's answer); merge adds the wordings as phrasings of an existing entry; reject
 * keeps it from being proposed again. The FAQ table changes (and its mirror in the document tiers);
 * customers see it once the next snapshot rebuild validated and published it.
 */
public class FaqCandidateReview {

    /** Why a decision was refused. */
    public static class ReviewException extends RuntimeException {

        public enum Kind { NOT_FOUND, CONFLICT, INVALID }

        private final Kind kind;

        public ReviewException(Kind kind, String message) {
            super(message);
            this.kind = kind;
        }

        public Kind kind() {
            return kind;
        }
    }

    private static final int MAX_PHRASINGS = 10;

    private final FaqCandidateStore candidates;
    private final FaqRepository faq;
    private final IngestionService ingestion;

    /** @param ingestion null = no document tiers to mirror into */
    public FaqCandidateReview(FaqCandidateStore candidates, FaqRepository faq, IngestionService ingestion) {
        this.candidates = candidates;
        this.faq = faq;
        this.ingestion = ingestion;
    }

    public FaqCandidate approve(long id, String key, String question, String answer, String category, String reviewer) {
        FaqCandidate c = proposed(id);
        if (answer == null || answer.isBlank() || answer.length() > 4000) {
            throw new ReviewException(ReviewException.Kind.INVALID, "answer is required (1-4000 characters)");
        }
        if (key == null || key.isBlank()) {
            key = "cand-" + id;
        }
        if (!key.matches("[A-Za-z0-9_.:-]{1,190}")) {
            throw new ReviewException(ReviewException.Kind.INVALID, "key must be 1-190 letters, digits or _.:-");
        }
        if (faq.findByKey(key).isPresent()) {
            throw new ReviewException(ReviewException.Kind.CONFLICT, "FAQ entry '" + key + "' exists; merge into it instead");
        }
        String q = question == null || question.isBlank() ? c.question() : question.strip();
        List<String> phrasings = new ArrayList<>(wordings(c));
        phrasings.remove(q);
        FaqEntry saved = save(new FaqEntry(0, key, q, limit(phrasings), answer.strip(), category, List.of(), null, null,
            null));
        return decide(c, "APPROVED", saved.key(), reviewer);
    }

    public FaqCandidate merge(long id, String faqKey, String reviewer) {
        FaqCandidate c = proposed(id);
        FaqEntry target = faq.findByKey(faqKey == null ? "" : faqKey).orElseThrow(() ->
            new ReviewException(ReviewException.Kind.INVALID, "no FAQ entry '" + faqKey + "' to merge into"));
        Set<String> phrasings = new LinkedHashSet<>(target.phrasings());
        phrasings.addAll(wordings(c));
        phrasings.remove(target.question());
        FaqEntry saved = save(new FaqEntry(target.id(), target.key(), target.question(), limit(new ArrayList<>(phrasings)),
            target.answer(), target.category(), target.tags(), target.validFrom(), target.validUntil(), null));
        return decide(c, "MERGED", saved.key(), reviewer);
    }

    public FaqCandidate reject(long id, String reviewer) {
        return decide(proposed(id), "REJECTED", null, reviewer);
    }

    private FaqEntry save(FaqEntry entry) {
        FaqEntry saved = faq.upsert(entry);
        if (ingestion != null) {
            ingestion.ingestPrepared(FaqService.mirror(saved), FaqService.mirrorChunks(saved));
        }
        return saved;
    }

    private FaqCandidate decide(FaqCandidate c, String status, String faqKey, String reviewer) {
        if (!candidates.decide(c.id(), status, faqKey, reviewer)) {
            throw new ReviewException(ReviewException.Kind.CONFLICT, "candidate " + c.id() + " was already reviewed");
        }
        return candidates.find(c.id()).orElseThrow();
    }

    private FaqCandidate proposed(long id) {
        FaqCandidate c = candidates.find(id).orElseThrow(() ->
            new ReviewException(ReviewException.Kind.NOT_FOUND, "no FAQ candidate " + id));
        if (!"PROPOSED".equals(c.status())) {
            throw new ReviewException(ReviewException.Kind.CONFLICT, "candidate " + id + " is already " + c.status());
        }
        return c;
    }

    private static Set<String> wordings(FaqCandidate c) {
        Set<String> all = new LinkedHashSet<>();
        all.add(c.question());
        all.addAll(c.examples());
        return all;
    }

    private static List<String> limit(List<String> phrasings) {
        return phrasings.size() > MAX_PHRASINGS ? List.copyOf(phrasings.subList(0, MAX_PHRASINGS)) : phrasings;
    }
}
