package io.sluice.console.knowledge;

import java.util.List;

import io.sluice.batch.faq.FaqCandidate;
import io.sluice.batch.faq.FaqCandidateReview;
import io.sluice.batch.faq.FaqCandidateStore;
import io.sluice.console.audit.AuditLog;

import org.springframework.stereotype.Service;

/**
 * Review of the FAQ candidates the batch job mined, through the batch module's own review service
 * (the one behind {@code /api/v1/faq/candidates}); every decision is audited.
 */
@Service
public class FaqCandidatesConsole {

    private final FaqCandidateStore candidates;
    private final FaqCandidateReview review;
    private final AuditLog audit;

    public FaqCandidatesConsole(FaqCandidateStore candidates, FaqCandidateReview review, AuditLog audit) {
        this.candidates = candidates;
        this.review = review;
        this.audit = audit;
    }

    /** Candidates of a status (null = all), most frequent first. */
    public List<FaqCandidate> list(String status) {
        return candidates.list(status, 200);
    }

    /**
     * A new FAQ entry from the candidate.
     *
     * @throws FaqCandidateReview.ReviewException with a message for people; nothing changes then
     */
    public FaqCandidate approve(String actor, long id, String key, String question, String answer, String category) {
        FaqCandidate decided = review.approve(id, blankToNull(key), blankToNull(question), answer, blankToNull(category),
            actor);
        audit.record(actor, "faq.candidate.approve", "candidate " + id, "PROPOSED: " + decided.question(),
            "APPROVED as FAQ entry " + decided.faqKey());
        return decided;
    }

    /** The candidate's wordings become phrasings of an existing entry. */
    public FaqCandidate merge(String actor, long id, String faqKey) {
        FaqCandidate decided = review.merge(id, faqKey == null ? null : faqKey.strip(), actor);
        audit.record(actor, "faq.candidate.merge", "candidate " + id, "PROPOSED: " + decided.question(),
            "MERGED into FAQ entry " + decided.faqKey());
        return decided;
    }

    public FaqCandidate reject(String actor, long id) {
        FaqCandidate decided = review.reject(id, actor);
        audit.record(actor, "faq.candidate.reject", "candidate " + id, "PROPOSED: " + decided.question(), "REJECTED");
        return decided;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
