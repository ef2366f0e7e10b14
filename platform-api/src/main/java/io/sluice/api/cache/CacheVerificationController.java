package io.sluice.api.cache;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;

import jakarta.servlet.http.HttpServletRequest;

import io.sluice.api.auth.ApiClient;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.problem.ProblemExceptionHandler;
import io.sluice.problem.ProblemTypes;
import io.sluice.semantics.evaluation.EvaluationReport;
import io.sluice.semantics.evaluation.EvaluationStore;
import io.sluice.semantics.model.Activation;
import io.sluice.semantics.model.StoredModel;
import io.sluice.semantics.pairs.CacheVerification;
import io.sluice.semantics.pairs.HitReviews;
import io.sluice.semantics.pairs.LabelledPair;
import io.sluice.semantics.pairs.PairFile;
import io.sluice.semantics.pairs.PairStore;
import io.sluice.semantics.pairs.PairVerifier;
import io.sluice.web.audit.AuditTrail;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The cache's learned verification over REST ({@code /api/v1/semantics/pairs}): labelled pairs imported
 * (CSV or JSONL, validated, all or nothing), pair-verifier versions trained, activated and rolled back,
 * the review queue of served hits, and the {@code cache-pairs} evaluation through the online path.
 * Reads need {@code knowledge:read}, changes {@code admin} (ApiScopeRules); every change is audited.
 */
@RestController
@RequestMapping("/api/v1/semantics/pairs")
public class CacheVerificationController {

    /** Activation or rollback: why (kept in the activation history). */
    public record Reason(String reason) {
    }

    /** A review label: {@code right} (one answer serves both) or {@code wrong}. */
    public record ReviewLabel(String label) {
    }

    private final PairStore pairs;
    private final CacheVerification verification;
    private final HitReviews reviews;
    private final EvaluationStore evaluations;
    private final CachePairsEvaluator evaluator;
    private final ObjectProvider<DegradationControl> degradation;

    public CacheVerificationController(PairStore pairs, CacheVerification verification, HitReviews reviews,
            EvaluationStore evaluations, CachePairsEvaluator evaluator, ObjectProvider<DegradationControl> degradation) {
        this.pairs = pairs;
        this.verification = verification;
        this.reviews = reviews;
        this.evaluations = evaluations;
        this.evaluator = evaluator;
        this.degradation = degradation;
    }

    /** Imports a labelled pair file; {@code replace=true} drops the earlier imported pairs first. */
    @PostMapping
    ResponseEntity<Map<String, Object>> importPairs(@RequestBody(required = false) String body,
            @RequestParam(name = "format", required = false) String format,
            @RequestHeader(name = "Content-Type", required = false) String contentType,
            @RequestParam(name = "replace", defaultValue = "false") boolean replace, HttpServletRequest http) {
        if (body == null || body.isBlank()) {
            throw new IllegalArgumentException("the request body holds no pairs");
        }
        PairFile.Format f = PairFile.Format.of(format != null ? format : mediaType(contentType));
        List<LabelledPair> parsed = PairFile.parse(body, f, verification.properties().maxImportPairs());
        PairStore.Summary before = pairs.summary();
        String importId = UUID.randomUUID().toString();
        int written = pairs.importAll(parsed, replace, importId, actor(http));
        PairStore.Summary after = pairs.summary();
        AuditTrail.note(http, replace ? "semantics.pairs.replace" : "semantics.pairs.import", "pairs import " + importId,
            describe(before), describe(after));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("importId", importId);
        out.put("imported", written);
        out.put("summary", after);
        return ResponseEntity.status(HttpStatus.CREATED).body(out);
    }

    @GetMapping
    PairStore.Summary summary() {
        return pairs.summary();
    }

    /** Trains a new pair-verifier version on every stored pair; it does not answer until activated. */
    @PostMapping("/models")
    ResponseEntity<StoredModel> train(@RequestBody(required = false) Reason note, HttpServletRequest http) {
        StoredModel stored = verification.train(levelCosines(), actor(http), note == null ? null : note.reason());
        AuditTrail.note(http, "semantics.pair-verifier.train", PairVerifier.KIND + " v" + stored.version(), null,
            stored.note());
        return ResponseEntity.status(HttpStatus.CREATED).body(stored);
    }

    /** Stored versions (newest first), the version answering now and the activation history. */
    @GetMapping("/models")
    Map<String, Object> models() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("active", verification.active().version());
        out.put("targets", Map.of("L0", verification.properties().targetL0(), "L1", verification.properties().targetL1(),
            "L2", verification.properties().targetL2(), "L3", verification.properties().targetL3()));
        out.put("versions", verification.versions(20));
        out.put("history", verification.history(20));
        return out;
    }

    @PostMapping("/models/{version}/activate")
    Map<String, Object> activate(@PathVariable long version, @RequestParam(name = "force", defaultValue = "false") boolean force,
            @RequestBody(required = false) Reason reason, HttpServletRequest http) {
        long before = verification.active().version();
        Activation.Action action = verification.activate(version, force, actor(http), reason == null ? null : reason.reason());
        AuditTrail.note(http, "semantics.pair-verifier.activate", PairVerifier.KIND, "v" + before,
            "v" + version + " (" + action + ")");
        return Map.of("active", version, "action", action);
    }

    @PostMapping("/models/rollback")
    Map<String, Object> rollback(@RequestBody(required = false) Reason reason, HttpServletRequest http) {
        long before = verification.active().version();
        long now = verification.rollback(actor(http), reason == null ? null : reason.reason())
            .map(StoredModel::version).orElse(0L);
        AuditTrail.note(http, "semantics.pair-verifier.rollback", PairVerifier.KIND, "v" + before,
            now == 0 ? "built-in default" : "v" + now);
        return Map.of("active", now);
    }

    /** Evaluates a labelled pair file through the online path with the verifier answering now; stored. */
    @PostMapping("/evaluations")
    ResponseEntity<EvaluationReport> evaluate(@RequestBody(required = false) String body,
            @RequestParam(name = "format", required = false) String format,
            @RequestHeader(name = "Content-Type", required = false) String contentType, HttpServletRequest http) {
        if (body == null || body.isBlank()) {
            throw new IllegalArgumentException("the request body holds no pairs");
        }
        PairFile.Format f = PairFile.Format.of(format != null ? format : mediaType(contentType));
        List<Map<String, String>> rows = PairFile.rows(body, f);
        if (rows.size() > verification.properties().maxImportPairs()) {
            throw new IllegalArgumentException("the file holds " + rows.size() + " pairs; at most "
                + verification.properties().maxImportPairs());
        }
        EvaluationReport report = evaluator.evaluate(rows);
        long id = evaluations.save(report, actor(http), "api");
        AuditTrail.note(http, "semantics.evaluation", CachePairsEvaluator.KIND + " #" + id, null,
            report.items() + " pairs, " + report.metrics());
        return ResponseEntity.status(HttpStatus.CREATED).body(report);
    }

    @GetMapping("/evaluations/latest")
    EvaluationReport latestEvaluation() {
        return evaluations.latest(CachePairsEvaluator.KIND)
            .orElseThrow(() -> new NoSuchElementException("no cache-pairs evaluation yet"));
    }

    /** The review queue: sampled served L2 hits, newest first ({@code open=true}: not labelled yet). */
    @GetMapping("/reviews")
    List<HitReviews.Item> reviews(@RequestParam(name = "open", defaultValue = "true") boolean open,
            @RequestParam(name = "limit", defaultValue = "50") int limit) {
        return reviews.recent(open, Math.max(1, Math.min(limit, 500)));
    }

    /** Labels a served hit; the label becomes a labelled pair for the next training. */
    @PostMapping("/reviews/{id}")
    HitReviews.Item label(@PathVariable long id, @RequestBody ReviewLabel body, HttpServletRequest http) {
        boolean right = switch (body == null || body.label() == null ? "" : body.label()) {
            case "right" -> true;
            case "wrong" -> false;
            default -> throw new IllegalArgumentException("label must be 'right' or 'wrong'");
        };
        HitReviews.Item item = reviews.label(id, right, actor(http));
        AuditTrail.note(http, "semantics.pairs.review", "cache hit review " + id, null, item.label());
        return item;
    }

    private Map<String, Double> levelCosines() {
        DegradationControl control = degradation.getIfAvailable();
        Map<String, Double> out = new LinkedHashMap<>();
        for (DegradationLevel level : DegradationLevel.values()) {
            out.put(level.name(), control == null
                ? io.sluice.governance.degradation.DegradationProperties.defaults().levels().get(level).cacheThreshold()
                : control.knobs(level).cacheThreshold());
        }
        return out;
    }

    private static String mediaType(String contentType) {
        if (contentType == null) {
            return null;
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip();
    }

    private static String actor(HttpServletRequest http) {
        ApiClient client = (ApiClient) http.getAttribute(ApiClient.ATTRIBUTE);
        return client == null ? "api" : "client:" + client.name();
    }

    private static String describe(PairStore.Summary s) {
        return s.pairs() + " pairs (" + s.same() + " same, " + s.different() + " different; " + s.fromImport()
            + " imported, " + s.fromReview() + " reviewed)";
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> invalid(IllegalArgumentException e) {
        return ResponseEntity.badRequest().body(ProblemExceptionHandler.problem(HttpStatus.BAD_REQUEST,
            ProblemTypes.INVALID_REQUEST, "Invalid request", e.getMessage()));
    }

    @ExceptionHandler(NoSuchElementException.class)
    ResponseEntity<ProblemDetail> notFound(NoSuchElementException e) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(ProblemExceptionHandler.problem(HttpStatus.NOT_FOUND,
            ProblemTypes.NOT_FOUND, "Not found", e.getMessage()));
    }

    @ExceptionHandler(IllegalStateException.class)
    ResponseEntity<ProblemDetail> notBetter(IllegalStateException e) {
        return ResponseEntity.status(HttpStatus.CONFLICT).body(ProblemExceptionHandler.problem(HttpStatus.CONFLICT,
            ProblemTypes.MODEL_NOT_BETTER, "Model not activated", e.getMessage()));
    }
}
