package io.sluice.api.relevance;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import io.sluice.api.auth.ApiClient;
import io.sluice.api.knowledge.LabelledFiles;
import io.sluice.knowledge.answer.RelevanceThresholds;
import io.sluice.problem.ProblemExceptionHandler;
import io.sluice.problem.ProblemTypes;
import io.sluice.semantics.evaluation.EvaluationReport;
import io.sluice.semantics.evaluation.EvaluationStore;
import io.sluice.semantics.model.Activation.Action;
import io.sluice.semantics.model.SemanticModels;
import io.sluice.semantics.model.StoredModel;
import io.sluice.semantics.relevance.FaqQueryEvaluator;
import io.sluice.semantics.relevance.LabelledQuery;
import io.sluice.semantics.relevance.RelevanceCalibrator;
import io.sluice.semantics.relevance.RelevanceModel;
import io.sluice.web.audit.AuditTrail;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.databind.ObjectMapper;

/**
 * Relevance bars and the {@code faq-queries} evaluation over REST. The labelled file (CSV or JSONL, fields
 * {@code query, key}; an empty key marks an out-of-domain question) is measured through the F1 path the
 * chat runs. Reads need {@code knowledge:read}, everything else admin (ApiScopeRules,
 * {@code /api/v1/semantics/**}); each change is audited.
 */
@RestController
public class RelevanceController {

    static final int MAX_BYTES = 5 * 1024 * 1024;
    /** Every HELD_OUT-th labelled query is kept out of calibration and used to compare the candidate. */
    static final int HELD_OUT = 4;

    private final FaqQueryEvaluator evaluator;
    private final EvaluationStore evaluations;
    private final RelevanceCalibrator calibrator;
    private final RelevanceModel relevance;
    private final SemanticModels models;
    private final ObjectMapper json;

    public RelevanceController(FaqQueryEvaluator evaluator, EvaluationStore evaluations, RelevanceCalibrator calibrator,
            RelevanceModel relevance, SemanticModels models, ObjectMapper json) {
        this.evaluator = evaluator;
        this.evaluations = evaluations;
        this.calibrator = calibrator;
        this.relevance = relevance;
        this.models = models;
        this.json = json;
    }

    /** Runs a labelled file of FAQ queries through the online path; stores and returns the report. */
    @PostMapping("/api/v1/semantics/evaluations/faq-queries")
    EvaluationReport evaluate(@RequestBody byte[] body,
            @RequestHeader(name = HttpHeaders.CONTENT_TYPE, required = false) String contentType, HttpServletRequest http) {
        EvaluationReport report = evaluator.evaluate(items(body, contentType));
        evaluations.save(report, actor(http), "api");
        AuditTrail.note(http, "semantics.evaluate", FaqQueryEvaluator.KIND, null,
            report.items() + " items, hit@1 " + report.metrics().get("hit@1"));
        return report;
    }

    @GetMapping("/api/v1/semantics/evaluations/faq-queries/latest")
    ResponseEntity<EvaluationReport> latest() {
        return evaluations.latest(FaqQueryEvaluator.KIND).map(ResponseEntity::ok)
            .orElseGet(() -> ResponseEntity.notFound().build());
    }

    /** The bars in service, the stored versions and the activation history. */
    @GetMapping("/api/v1/semantics/relevance")
    Map<String, Object> state() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("thresholds", relevance.thresholds());
        out.put("version", relevance.version());
        out.put("versions", models.versions(RelevanceModel.KIND, 20));
        out.put("history", models.history(RelevanceModel.KIND, 20));
        return out;
    }

    /**
     * Calibrates new bars from a labelled file: every {@value #HELD_OUT}th query is held out, the rest
     * calibrates; candidate and active bars are measured on the held-out part, the candidate is stored with
     * both figures and activated when it is not worse ({@code balanced}: mean of hit@1 and out-of-domain
     * no-answer rate) or when {@code force=true}. {@code activate=false} only stores it.
     */
    @PostMapping("/api/v1/semantics/relevance/calibrations")
    Map<String, Object> calibrate(@RequestBody byte[] body,
            @RequestHeader(name = HttpHeaders.CONTENT_TYPE, required = false) String contentType,
            @RequestParam(defaultValue = "true") boolean activate, @RequestParam(defaultValue = "false") boolean force,
            HttpServletRequest http) {
        List<LabelledQuery> all = LabelledQuery.of(items(body, contentType));
        List<LabelledQuery> tune = new ArrayList<>();
        List<LabelledQuery> held = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            (i % HELD_OUT == HELD_OUT - 1 ? held : tune).add(all.get(i));
        }
        if (held.stream().noneMatch(LabelledQuery::inDomain) || tune.stream().noneMatch(LabelledQuery::inDomain)) {
            throw new IllegalArgumentException("calibration needs labelled in-domain queries (at least 8)");
        }
        RelevanceThresholds active = relevance.thresholds();
        RelevanceThresholds candidate = calibrator.calibrate(tune, active);
        FaqQueryEvaluator.Measurement before = evaluator.measure(held, active);
        FaqQueryEvaluator.Measurement after = evaluator.measure(held, candidate);
        Map<String, Object> evaluation = new LinkedHashMap<>();
        evaluation.put("split", Map.of("calibration", tune.size(), "heldOut", held.size()));
        evaluation.put("candidate", after.metrics());
        evaluation.put("active", before.metrics());
        evaluation.put("activeThresholds", active);
        String actor = actor(http);
        StoredModel stored = models.save(RelevanceModel.KIND, relevance.encode(candidate), json.writeValueAsString(evaluation),
            "calibrated from " + all.size() + " labelled queries", actor);
        boolean notWorse = after.balanced() >= before.balanced();
        boolean activated = activate && (notWorse || force);
        if (activated) {
            models.activate(RelevanceModel.KIND, stored.version(), notWorse ? Action.ACTIVATE : Action.FORCE, actor,
                String.format("held-out balanced %.3f vs %.3f", after.balanced(), before.balanced()));
        }
        evaluations.save(new EvaluationReport("relevance", held.size(), after.metrics(), json.writeValueAsString(evaluation),
            stored.version(), Instant.now()), actor, "calibration");
        AuditTrail.note(http, "semantics.relevance.calibrate", "relevance v" + stored.version(), active.toString(),
            candidate + (activated ? " (activated)" : " (stored)"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("version", stored.version());
        out.put("thresholds", candidate);
        out.put("activated", activated);
        out.put("notWorse", notWorse);
        out.put("evaluation", evaluation);
        return out;
    }

    /** Puts the bars active before the latest activation back (the configured ones after the first). */
    @PostMapping("/api/v1/semantics/relevance/rollback")
    Map<String, Object> rollback(HttpServletRequest http) {
        long before = relevance.version();
        models.rollback(RelevanceModel.KIND, actor(http), "rollback through the API");
        AuditTrail.note(http, "semantics.relevance.rollback", "relevance", "v" + before, "v" + relevance.version());
        return state();
    }

    private static List<java.util.Map<String, String>> items(byte[] body, String contentType) {
        if (body.length > MAX_BYTES) {
            throw new IllegalArgumentException("the file is larger than 5 MB");
        }
        return LabelledFiles.read(body, contentType);
    }

    private static String actor(HttpServletRequest http) {
        ApiClient client = (ApiClient) http.getAttribute(ApiClient.ATTRIBUTE);
        return client == null ? "api" : "api:" + client.name();
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> invalid(IllegalArgumentException e) {
        return ResponseEntity.status(HttpStatus.BAD_REQUEST).contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .body(ProblemExceptionHandler.problem(HttpStatus.BAD_REQUEST, ProblemTypes.INVALID_REQUEST,
                "Invalid labelled file", e.getMessage()));
    }
}
