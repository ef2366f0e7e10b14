package io.sluice.batch.faq;

import java.time.Instant;
import java.util.List;

/**
 * A frequent customer question the FAQ did not answer well, proposed for review.
 *
 * @param question    representative wording (the group's member nearest its centre)
 * @param examples    other wordings seen (a few)
 * @param occurrences questions in the group
 * @param lowTier     of those, answered at F1/F2
 * @param negative    of those, marked not helpful
 * @param status      PROPOSED, APPROVED (new FAQ entry), MERGED (phrasing of an entry), REJECTED
 * @param faqKey      the FAQ entry it became or was merged into
 */
public record FaqCandidate(long id, String question, List<String> examples, int occurrences, int lowTier, int negative,
        String status, String faqKey, String reviewedBy, Instant createdAt, Instant reviewedAt) {
}
