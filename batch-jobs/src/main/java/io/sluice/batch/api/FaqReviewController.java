package io.sluice.batch.api;

import java.util.List;
import java.util.Set;

import io.sluice.batch.faq.FaqCandidate;
import io.sluice.batch.faq.FaqCandidateReview;
import io.sluice.batch.faq.FaqCandidateStore;
import io.sluice.batch.faq.FaqSnapshotDistribution;
import io.sluice.batch.faq.FaqSnapshotStore;
import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.web.caller.ApiCaller;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Review of mined FAQ candidates and the published FAQ snapshots (for operators and the console).
 *
 * <pre>
 * GET  /api/v1/faq/candidates?status=PROPOSED&amp;limit=100   candidates, most frequent first
 * POST /api/v1/faq/candidates/{id}/approve   {"answer", "key"?, "question"?, "category"?} → new FAQ entry
 * POST /api/v1/faq/candidates/{id}/merge     {"faqKey"} → wordings become phrasings of that entry
 * POST /api/v1/faq/candidates/{id}/reject
 * GET  /api/v1/faq/snapshots                  this instance's version, the cluster's current and kept versions
 * POST /api/v1/faq/snapshots/{version}/rollback   make a kept version current on every instance
 * </pre>
 *
 * <p>The reviewer recorded with a decision is the authenticated client, never a name from the body: a
 * key cannot sign a decision as someone else.
 */
@RestController
@RequestMapping(path = "/api/v1/faq", produces = MediaType.APPLICATION_JSON_VALUE)
public class FaqReviewController {

    private static final Set<String> STATUSES = Set.of("PROPOSED", "APPROVED", "MERGED", "REJECTED");

    public record ApproveRequest(String answer, String key, String question, String category) {
    }

    public record MergeRequest(String faqKey) {
    }

    public record SnapshotsView(long servingVersion, int servingEntries, Long clusterVersion,
            List<FaqSnapshotStore.Version> kept) {
    }

    public record RollbackView(long version, int entries) {
    }

    private final FaqCandidateStore candidates;
    private final FaqCandidateReview review;
    private final FaqSnapshotStore snapshotStore;
    private final FaqSnapshotDistribution distribution;
    private final FaqSnapshotService snapshots;

    public FaqReviewController(FaqCandidateStore candidates, FaqCandidateReview review, FaqSnapshotStore snapshotStore,
            FaqSnapshotDistribution distribution, FaqSnapshotService snapshots) {
        this.candidates = candidates;
        this.review = review;
        this.snapshotStore = snapshotStore;
        this.distribution = distribution;
        this.snapshots = snapshots;
    }

    @GetMapping("/candidates")
    public List<FaqCandidate> candidates(@RequestParam(required = false) String status,
            @RequestParam(defaultValue = "100") int limit) {
        if (status != null && !STATUSES.contains(status)) {
            throw new FaqCandidateReview.ReviewException(FaqCandidateReview.ReviewException.Kind.INVALID,
                "status must be one of " + STATUSES);
        }
        if (limit < 1 || limit > 1000) {
            throw new FaqCandidateReview.ReviewException(FaqCandidateReview.ReviewException.Kind.INVALID,
                "limit must be 1-1000");
        }
        return candidates.list(status, limit);
    }

    @PostMapping("/candidates/{id}/approve")
    public FaqCandidate approve(@PathVariable long id, @RequestBody ApproveRequest body,
            @RequestAttribute(name = ApiCaller.ATTRIBUTE, required = false) ApiCaller caller) {
        return review.approve(id, body.key(), body.question(), body.answer(), body.category(), reviewer(caller));
    }

    @PostMapping("/candidates/{id}/merge")
    public FaqCandidate merge(@PathVariable long id, @RequestBody MergeRequest body,
            @RequestAttribute(name = ApiCaller.ATTRIBUTE, required = false) ApiCaller caller) {
        return review.merge(id, body.faqKey(), reviewer(caller));
    }

    @PostMapping("/candidates/{id}/reject")
    public FaqCandidate reject(@PathVariable long id,
            @RequestAttribute(name = ApiCaller.ATTRIBUTE, required = false) ApiCaller caller) {
        return review.reject(id, reviewer(caller));
    }

    private static String reviewer(ApiCaller caller) {
        return caller == null ? null : caller.actor();
    }

    @GetMapping("/snapshots")
    public SnapshotsView snapshots() {
        FaqSnapshot serving = snapshots.current();
        return new SnapshotsView(serving.version(), serving.size(), snapshotStore.current().orElse(null),
            snapshotStore.versions());
    }

    @PostMapping("/snapshots/{version}/rollback")
    public RollbackView rollback(@PathVariable long version) {
        if (snapshotStore.content(version).isEmpty()) {
            throw new NotFoundException("no kept FAQ snapshot v" + version);
        }
        try {
            FaqSnapshot s = distribution.rollback(version);
            return new RollbackView(s.version(), s.size());
        } catch (IllegalStateException e) {
            throw new FaqCandidateReview.ReviewException(FaqCandidateReview.ReviewException.Kind.CONFLICT,
                "FAQ snapshot v" + version + " cannot be put back: " + e.getMessage());
        }
    }
}
