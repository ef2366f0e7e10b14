package io.sluice.api.knowledge;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.servlet.http.HttpServletRequest;

import io.sluice.api.auth.ApiClient;
import io.sluice.problem.ProblemExceptionHandler;
import io.sluice.web.audit.AuditTrail;

import io.sluice.problem.ProblemTypes;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.ingest.IngestException;
import io.sluice.knowledge.ingest.IngestResult;
import io.sluice.knowledge.ingest.IngestionService;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

/**
 * Knowledge ingestion over REST: documents (JSON with text, or a multipart file for PDFs and
 * larger files) and FAQ entries. Every refusal is problem+json naming the problem; nothing of a
 * refused input is stored. Documents are ingested off the request thread ({@link IngestJobs}): the
 * upload answers 201/200 when it is done within {@code sluice.knowledge.api.sync-wait}, else 202 with a
 * job to follow; a document over a parsing limit is refused with {@code document-limits-exceeded}.
 * Reads need scope {@code knowledge:read}, changes {@code knowledge:write}; each change is audited.
 */
@RestController
@RequestMapping("/api/v1/knowledge")
public class KnowledgeController {

    /** A document given inline as text. {@code contentType}: text/markdown (default), text/plain, text/html. */
    public record DocumentBody(String externalId, String title, String contentType, String content, String sourceUrl,
            String category, List<String> tags, Instant validFrom, Instant validUntil) {
    }

    /** A FAQ entry; {@code key} is its stable id (re-posting the same key updates it). */
    public record FaqBody(String key, String question, List<String> phrasings, String answer, String category,
            List<String> tags, Instant validFrom, Instant validUntil) {
    }

    private final IngestionService ingestion;
    private final FaqService faq;
    private final IngestJobs jobs;
    private final Duration syncWait;

    public KnowledgeController(IngestionService ingestion, FaqService faq) {
        this(ingestion, faq, new IngestJobs(1, 4), Duration.ofSeconds(30));
    }

    @Autowired
    public KnowledgeController(IngestionService ingestion, FaqService faq, IngestJobs jobs,
            KnowledgeApiProperties properties) {
        this(ingestion, faq, jobs, properties.syncWait());
    }

    KnowledgeController(IngestionService ingestion, FaqService faq, IngestJobs jobs, Duration syncWait) {
        this.ingestion = ingestion;
        this.faq = faq;
        this.jobs = jobs;
        this.syncWait = syncWait;
    }

    @PostMapping(path = "/documents", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> ingestJson(@RequestBody DocumentBody body, HttpServletRequest http) {
        byte[] content = body.content() == null ? new byte[0] : body.content().getBytes(StandardCharsets.UTF_8);
        String type = body.contentType() == null || body.contentType().isBlank() ? "text/markdown" : body.contentType();
        return ingest(new DocumentRequest(body.externalId(), body.title(), null, type, content,
            body.sourceUrl(), body.category(), body.tags(), body.validFrom(), body.validUntil()), http);
    }

    @PostMapping(path = "/documents", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    ResponseEntity<?> ingestFile(HttpServletRequest http, @RequestParam("file") MultipartFile file,
            @RequestParam(name = "externalId", required = false) String externalId,
            @RequestParam(name = "title", required = false) String title,
            @RequestParam(name = "category", required = false) String category,
            @RequestParam(name = "sourceUrl", required = false) String sourceUrl,
            @RequestParam(name = "validFrom", required = false) Instant validFrom,
            @RequestParam(name = "validUntil", required = false) Instant validUntil) throws IOException {
        String id = externalId != null && !externalId.isBlank() ? externalId : file.getOriginalFilename();
        return ingest(new DocumentRequest(id, title, file.getOriginalFilename(), file.getContentType(),
            file.getBytes(), sourceUrl, category, List.of(), validFrom, validUntil), http);
    }

    /** Runs the ingest on the ingest pool; waits up to sync-wait for it, else answers 202 with the job. */
    private ResponseEntity<?> ingest(DocumentRequest request, HttpServletRequest http) {
        ApiClient client = (ApiClient) http.getAttribute(ApiClient.ATTRIBUTE);
        IngestJobs.Job job;
        try {
            job = jobs.start(client == null ? 0 : client.id(), request.externalId(), progress -> ingestion.ingest(request, progress));
        } catch (RejectedExecutionException e) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "5")
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(ProblemExceptionHandler.problem(HttpStatus.SERVICE_UNAVAILABLE, ProblemTypes.SATURATED, "Saturated",
                    "Too many documents are being ingested right now; please retry shortly."));
        }
        AuditTrail.note(http, "knowledge.document", IngestException.named("document", request.externalId()), null,
            "ingest job " + job.getId());
        try {
            IngestResult result = job.future().get(syncWait.toMillis(), TimeUnit.MILLISECONDS);
            return ResponseEntity.status(result.outcome() == IngestResult.Outcome.CREATED ? HttpStatus.CREATED
                : HttpStatus.OK).body(result);
        } catch (TimeoutException e) {
            return ResponseEntity.status(HttpStatus.ACCEPTED).location(URI.create(job.getStatusUrl())).body(job);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException("ingest failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ResponseEntity.status(HttpStatus.ACCEPTED).location(URI.create(job.getStatusUrl())).body(job);
        }
    }

    /** One ingest started by this client: stage and progress, then its result or its problem. */
    @GetMapping("/documents/jobs/{jobId}")
    IngestJobs.Job job(@PathVariable UUID jobId, HttpServletRequest http) {
        ApiClient client = (ApiClient) http.getAttribute(ApiClient.ATTRIBUTE);
        return jobs.find(jobId, client == null ? 0 : client.id())
            .orElseThrow(() -> new IngestException(IngestException.Problem.NOT_FOUND, "no such ingest job for this client"));
    }

    @DeleteMapping("/documents/{externalId}")
    ResponseEntity<Void> deleteDocument(@PathVariable String externalId, HttpServletRequest http) {
        if (!ingestion.delete(externalId)) {
            throw new IngestException(IngestException.Problem.NOT_FOUND, "no such document");
        }
        AuditTrail.note(http, "knowledge.document.delete", IngestException.named("document", externalId), "present",
            "deleted");
        return ResponseEntity.noContent().build();
    }

    /** Running and recent ingests with their stage and progress. */
    @GetMapping("/documents/jobs")
    Collection<IngestionService.Job> jobs() {
        return ingestion.jobs();
    }

    @PostMapping(path = "/faq", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<FaqEntry> saveFaq(@RequestBody FaqBody body, HttpServletRequest http) {
        java.util.Optional<FaqEntry> before = body.key() != null && !body.key().isBlank() ? faq.find(body.key())
            : java.util.Optional.empty();
        FaqEntry saved = faq.save(new FaqEntry(0, body.key(), body.question(),
            body.phrasings() == null ? List.of() : body.phrasings(), body.answer(), body.category(), body.tags(),
            body.validFrom(), body.validUntil(), null));
        AuditTrail.note(http, "faq.save", IngestException.named("FAQ entry", saved.key()),
            before.map(KnowledgeController::describe).orElse(null), describe(saved));
        return ResponseEntity.status(before.isPresent() ? HttpStatus.OK : HttpStatus.CREATED).body(saved);
    }

    @DeleteMapping("/faq/{key}")
    ResponseEntity<Void> deleteFaq(@PathVariable String key, HttpServletRequest http) {
        java.util.Optional<FaqEntry> before = faq.find(key);
        if (!faq.delete(key)) {
            throw new IngestException(IngestException.Problem.NOT_FOUND, "no such FAQ entry");
        }
        AuditTrail.note(http, "faq.delete", IngestException.named("FAQ entry", key),
            before.map(KnowledgeController::describe).orElse(null), "deleted");
        return ResponseEntity.noContent().build();
    }

    private static String describe(FaqEntry e) {
        return "question=" + e.question() + "; answer=" + e.answer();
    }

    @ExceptionHandler(IngestException.class)
    ResponseEntity<ProblemDetail> refused(IngestException e) {
        HttpStatus status = switch (e.problem()) {
            case TOO_LARGE -> HttpStatus.PAYLOAD_TOO_LARGE;
            case UNSUPPORTED_TYPE -> HttpStatus.UNSUPPORTED_MEDIA_TYPE;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case LIMITS_EXCEEDED -> HttpStatus.UNPROCESSABLE_CONTENT;
            case FAILED -> HttpStatus.INTERNAL_SERVER_ERROR;
            default -> HttpStatus.BAD_REQUEST;
        };
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, e.getMessage());
        problem.setType(switch (e.problem()) {
            case TOO_LARGE -> ProblemTypes.PAYLOAD_TOO_LARGE;
            case UNSUPPORTED_TYPE -> ProblemTypes.UNSUPPORTED_REQUEST;
            case NOT_FOUND -> ProblemTypes.NOT_FOUND;
            case LIMITS_EXCEEDED -> ProblemTypes.DOCUMENT_LIMITS_EXCEEDED;
            case FAILED -> ProblemTypes.INTERNAL;
            default -> ProblemTypes.INVALID_REQUEST;
        });
        problem.setTitle(switch (e.problem()) {
            case EMPTY -> "Empty document";
            case BINARY -> "Binary content";
            case TOO_LARGE -> "Document too large";
            case UNSUPPORTED_TYPE -> "Unsupported document type";
            case NOT_FOUND -> "Not found";
            case LIMITS_EXCEEDED -> "Document limits exceeded";
            case FAILED -> "Ingestion failed";
            default -> "Invalid knowledge input";
        });
        problem.setProperty("problem", e.problem().name());
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }
}
