package io.sluice.api.knowledge;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.ingest.IngestException;
import io.sluice.problem.ProblemExceptionHandler;
import io.sluice.problem.ProblemTypes;
import io.sluice.web.audit.AuditTrail;

import org.springframework.http.HttpHeaders;
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
import org.springframework.web.bind.annotation.RestController;

/**
 * Operator FAQ operations: bulk import (CSV or JSONL; validated, atomic, one snapshot publish) and the
 * snapshot publish API. Scopes: {@code knowledge:read} for reads, {@code knowledge:write} for changes
 * (ApiScopeRules); every change is audited.
 */
@RestController
@RequestMapping("/api/v1/knowledge/faq")
public class FaqOperationsController {

    /** Largest import body. */
    static final int MAX_IMPORT_BYTES = 10 * 1024 * 1024;

    private final FaqService faq;
    private final FaqSnapshotService snapshots;

    public FaqOperationsController(FaqService faq, FaqSnapshotService snapshots) {
        this.faq = faq;
        this.snapshots = snapshots;
    }

    /**
     * Imports entries: CSV ({@code Content-Type: text/csv}; columns key, question, phrasings, answer,
     * category, tags, validFrom, validUntil; lists separated by {@code |}) or JSONL (anything else; the same
     * fields, lists as arrays). Re-importing a key updates that entry.
     */
    @PostMapping("/import")
    ResponseEntity<FaqService.ImportResult> importEntries(@RequestBody byte[] body,
            @RequestHeader(name = HttpHeaders.CONTENT_TYPE, required = false) String contentType, HttpServletRequest http) {
        if (body.length > MAX_IMPORT_BYTES) {
            throw new IngestException(IngestException.Problem.TOO_LARGE, "the import is larger than 10 MB");
        }
        List<FaqEntry> entries = entries(LabelledFiles.read(body, contentType));
        FaqService.ImportResult result = faq.importAll(entries);
        AuditTrail.note(http, "faq.import", entries.size() + " FAQ entries", null,
            result.created() + " created, " + result.updated() + " updated, snapshot v" + result.snapshotVersion());
        return ResponseEntity.ok(result);
    }

    static List<FaqEntry> entries(List<Map<String, String>> rows) {
        List<FaqEntry> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            Map<String, String> r = rows.get(i);
            out.add(new FaqEntry(0, blankToNull(r.get("key")), r.get("question"), list(r.get("phrasings")),
                r.get("answer"), blankToNull(r.get("category")), list(r.get("tags")), instant(r.get("validFrom"), i),
                instant(r.get("validUntil"), i), null));
        }
        return out;
    }

    /** The published snapshot and the versions kept on disk (any of them can be published again). */
    @GetMapping("/snapshots")
    Map<String, Object> snapshots() {
        Map<String, Object> out = new LinkedHashMap<>();
        FaqSnapshot current = snapshots.current();
        out.put("current", describe(current));
        out.put("versions", snapshots.versionsOnDisk());
        return out;
    }

    /** Builds a snapshot from the stored entries, validates and publishes it. */
    @PostMapping("/snapshots")
    ResponseEntity<Map<String, Object>> publish(HttpServletRequest http) {
        long before = snapshots.current().version();
        FaqSnapshot published = faq.publishSnapshot();
        AuditTrail.note(http, "faq.snapshot.publish", "faq snapshot", "v" + before, "v" + published.version());
        return ResponseEntity.status(HttpStatus.CREATED).body(describe(published));
    }

    /** Publishes a kept version again (roll back or forward). */
    @PostMapping("/snapshots/{version}/publish")
    Map<String, Object> publishVersion(@PathVariable long version, HttpServletRequest http) {
        if (!snapshots.versionsOnDisk().contains(version)) {
            throw new IngestException(IngestException.Problem.NOT_FOUND, "no such snapshot version");
        }
        long before = snapshots.current().version();
        FaqSnapshot published = snapshots.publishVersion(version);
        AuditTrail.note(http, "faq.snapshot.rollback", "faq snapshot", "v" + before, "v" + published.version());
        return describe(published);
    }

    private static Map<String, Object> describe(FaqSnapshot s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("version", s.version());
        out.put("entries", s.size());
        out.put("createdAt", s.createdAt());
        return out;
    }

    private static List<String> list(String value) {
        return value == null || value.isBlank() ? List.of()
            : Arrays.stream(value.split("\\|")).map(String::strip).filter(v -> !v.isEmpty()).toList();
    }

    private static String blankToNull(String v) {
        return v == null || v.isBlank() ? null : v.strip();
    }

    private static Instant instant(String value, int line) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(value.strip());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("entry " + (line + 1) + ": dates are ISO-8601 instants (2026-01-31T00:00:00Z)");
        }
    }

    @ExceptionHandler(IngestException.class)
    ResponseEntity<ProblemDetail> refused(IngestException e) {
        HttpStatus status = switch (e.problem()) {
            case TOO_LARGE -> HttpStatus.PAYLOAD_TOO_LARGE;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case FAILED -> HttpStatus.INTERNAL_SERVER_ERROR;
            default -> HttpStatus.BAD_REQUEST;
        };
        return problem(status, switch (e.problem()) {
            case TOO_LARGE -> ProblemTypes.PAYLOAD_TOO_LARGE;
            case NOT_FOUND -> ProblemTypes.NOT_FOUND;
            case FAILED -> ProblemTypes.INTERNAL;
            default -> ProblemTypes.INVALID_REQUEST;
        }, status == HttpStatus.BAD_REQUEST ? "Invalid FAQ import" : status.getReasonPhrase(), e.getMessage());
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> invalid(IllegalArgumentException e) {
        return problem(HttpStatus.BAD_REQUEST, ProblemTypes.INVALID_REQUEST, "Invalid FAQ import", e.getMessage());
    }

    /** A snapshot that fails validation: the previous one keeps answering. */
    @ExceptionHandler(IllegalStateException.class)
    ResponseEntity<ProblemDetail> rejected(IllegalStateException e) {
        return problem(HttpStatus.UNPROCESSABLE_CONTENT, ProblemTypes.INVALID_REQUEST, "Snapshot not published",
            e.getMessage() + " (the previous snapshot keeps answering)");
    }

    static ResponseEntity<ProblemDetail> problem(HttpStatus status, java.net.URI type, String title, String detail) {
        return ResponseEntity.status(status).contentType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON)
            .body(ProblemExceptionHandler.problem(status, type, title, detail));
    }
}
