package io.sluice.api.knowledge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

import io.sluice.problem.ProblemTypes;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.ingest.IngestException;
import io.sluice.knowledge.ingest.IngestResult;
import io.sluice.knowledge.ingest.IngestionService;

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
 * refused input is stored.
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

    public KnowledgeController(IngestionService ingestion, FaqService faq) {
        this.ingestion = ingestion;
        this.faq = faq;
    }

    @PostMapping(path = "/documents", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<IngestResult> ingestJson(@RequestBody DocumentBody body) {
        byte[] content = body.content() == null ? new byte[0] : body.content().getBytes(StandardCharsets.UTF_8);
        String type = body.contentType() == null || body.contentType().isBlank() ? "text/markdown" : body.contentType();
        return respond(ingestion.ingest(new DocumentRequest(body.externalId(), body.title(), null, type, content,
            body.sourceUrl(), body.category(), body.tags(), body.validFrom(), body.validUntil())));
    }

    @PostMapping(path = "/documents", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    ResponseEntity<IngestResult> ingestFile(@RequestParam("file") MultipartFile file,
            @RequestParam(name = "externalId", required = false) String externalId,
            @RequestParam(name = "title", required = false) String title,
            @RequestParam(name = "category", required = false) String category,
            @RequestParam(name = "sourceUrl", required = false) String sourceUrl,
            @RequestParam(name = "validFrom", required = false) Instant validFrom,
            @RequestParam(name = "validUntil", required = false) Instant validUntil) throws IOException {
        String id = externalId != null && !externalId.isBlank() ? externalId : file.getOriginalFilename();
        return respond(ingestion.ingest(new DocumentRequest(id, title, file.getOriginalFilename(), file.getContentType(),
            file.getBytes(), sourceUrl, category, List.of(), validFrom, validUntil)));
    }

    @DeleteMapping("/documents/{externalId}")
    ResponseEntity<Void> deleteDocument(@PathVariable String externalId) {
        if (!ingestion.delete(externalId)) {
            throw new IngestException(IngestException.Problem.NOT_FOUND, "no document '" + externalId + "'");
        }
        return ResponseEntity.noContent().build();
    }

    /** Running and recent ingests with their stage and progress. */
    @GetMapping("/documents/jobs")
    Collection<IngestionService.Job> jobs() {
        return ingestion.jobs();
    }

    @PostMapping(path = "/faq", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<FaqEntry> saveFaq(@RequestBody FaqBody body) {
        boolean exists = body.key() != null && !body.key().isBlank() && faq.find(body.key()).isPresent();
        FaqEntry saved = faq.save(new FaqEntry(0, body.key(), body.question(),
            body.phrasings() == null ? List.of() : body.phrasings(), body.answer(), body.category(), body.tags(),
            body.validFrom(), body.validUntil(), null));
        return ResponseEntity.status(exists ? HttpStatus.OK : HttpStatus.CREATED).body(saved);
    }

    @DeleteMapping("/faq/{key}")
    ResponseEntity<Void> deleteFaq(@PathVariable String key) {
        if (!faq.delete(key)) {
            throw new IngestException(IngestException.Problem.NOT_FOUND, "no FAQ entry '" + key + "'");
        }
        return ResponseEntity.noContent().build();
    }

    private static ResponseEntity<IngestResult> respond(IngestResult result) {
        return ResponseEntity.status(result.outcome() == IngestResult.Outcome.CREATED ? HttpStatus.CREATED
            : HttpStatus.OK).body(result);
    }

    @ExceptionHandler(IngestException.class)
    ResponseEntity<ProblemDetail> refused(IngestException e) {
        HttpStatus status = switch (e.problem()) {
            case TOO_LARGE -> HttpStatus.PAYLOAD_TOO_LARGE;
            case UNSUPPORTED_TYPE -> HttpStatus.UNSUPPORTED_MEDIA_TYPE;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case FAILED -> HttpStatus.INTERNAL_SERVER_ERROR;
            default -> HttpStatus.BAD_REQUEST;
        };
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, e.getMessage());
        problem.setType(switch (e.problem()) {
            case TOO_LARGE -> ProblemTypes.PAYLOAD_TOO_LARGE;
            case UNSUPPORTED_TYPE -> ProblemTypes.UNSUPPORTED_REQUEST;
            case NOT_FOUND -> ProblemTypes.NOT_FOUND;
            case FAILED -> ProblemTypes.INTERNAL;
            default -> ProblemTypes.INVALID_REQUEST;
        });
        problem.setTitle(switch (e.problem()) {
            case EMPTY -> "Empty document";
            case BINARY -> "Binary content";
            case TOO_LARGE -> "Document too large";
            case UNSUPPORTED_TYPE -> "Unsupported document type";
            case NOT_FOUND -> "Not found";
            case FAILED -> "Ingestion failed";
            default -> "Invalid knowledge input";
        });
        problem.setProperty("problem", e.problem().name());
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }
}
