package io.sluice.batch.api;

import java.net.URI;
import java.util.List;
import java.util.stream.Collectors;

import io.sluice.batch.faq.FaqCandidateReview;
import io.sluice.batch.jobs.JobControlException;
import io.sluice.batch.tasks.TaskValidationException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.lang.Nullable;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;

/** Errors of the batch endpoints as RFC 9457 problem+json with stable types ({@link BatchProblemTypes}). */
@RestControllerAdvice(basePackages = "io.sluice.batch.api")
public class BatchApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(BatchApiExceptionHandler.class);

    @ExceptionHandler(TaskValidationException.class)
    ResponseEntity<ProblemDetail> invalidTask(TaskValidationException ex) {
        ProblemDetail problem = switch (ex.kind()) {
            case UNKNOWN_TYPE -> problem(HttpStatus.BAD_REQUEST, BatchProblemTypes.UNKNOWN_TASK_TYPE, "Unknown task type", ex.getMessage());
            case PAYLOAD_TOO_LARGE -> problem(HttpStatus.BAD_REQUEST, BatchProblemTypes.TASK_PAYLOAD_TOO_LARGE, "Task payload too large", ex.getMessage());
            case INVALID_PAYLOAD -> problem(HttpStatus.BAD_REQUEST, BatchProblemTypes.INVALID_REQUEST, "Invalid request", ex.getMessage());
            case IDEMPOTENCY_CONFLICT -> problem(HttpStatus.CONFLICT, BatchProblemTypes.IDEMPOTENCY_CONFLICT, "Idempotency key reused", ex.getMessage());
        };
        if (!ex.errors().isEmpty()) {
            problem.setProperty("errors", ex.errors());
        }
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    @ExceptionHandler(JobControlException.class)
    ResponseEntity<ProblemDetail> jobControl(JobControlException ex) {
        ProblemDetail problem = switch (ex.kind()) {
            case NOT_FOUND -> problem(HttpStatus.NOT_FOUND, BatchProblemTypes.NOT_FOUND, "Not found", ex.getMessage());
            case CONFLICT -> problem(HttpStatus.CONFLICT, BatchProblemTypes.JOB_STATE_CONFLICT, "Job state conflict", ex.getMessage());
            case INVALID -> problem(HttpStatus.BAD_REQUEST, BatchProblemTypes.INVALID_REQUEST, "Invalid request", ex.getMessage());
        };
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    @ExceptionHandler(FaqCandidateReview.ReviewException.class)
    ResponseEntity<ProblemDetail> review(FaqCandidateReview.ReviewException ex) {
        ProblemDetail problem = switch (ex.kind()) {
            case NOT_FOUND -> problem(HttpStatus.NOT_FOUND, BatchProblemTypes.NOT_FOUND, "Not found", ex.getMessage());
            case CONFLICT -> problem(HttpStatus.CONFLICT, BatchProblemTypes.FAQ_REVIEW_CONFLICT, "FAQ review conflict",
                ex.getMessage());
            case INVALID -> problem(HttpStatus.BAD_REQUEST, BatchProblemTypes.INVALID_REQUEST, "Invalid request", ex.getMessage());
        };
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    @ExceptionHandler(NotFoundException.class)
    ResponseEntity<ProblemDetail> notFound(NotFoundException ex) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND)
            .body(problem(HttpStatus.NOT_FOUND, BatchProblemTypes.NOT_FOUND, "Not found", ex.getMessage()));
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<String> errors = ex.getBindingResult().getFieldErrors().stream()
            .map(error -> error.getField() + " " + error.getDefaultMessage())
            .sorted()
            .toList();
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, BatchProblemTypes.INVALID_REQUEST, "Invalid request",
            String.join("; ", errors));
        problem.setProperty("errors", errors);
        return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, BatchProblemTypes.MALFORMED_REQUEST, "Malformed request",
            describe(ex));
        return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception ex) {
        log.error("unexpected error while serving a batch API request", ex);
        return ResponseEntity.internalServerError().body(problem(HttpStatus.INTERNAL_SERVER_ERROR,
            BatchProblemTypes.INTERNAL, "Internal error", "The request could not be completed."));
    }

    /** Standard Spring MVC errors (405, 415, 404 ...) keep their status but get a stable type. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, @Nullable Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        if (body instanceof ProblemDetail problem && (problem.getType() == null
                || "about:blank".equals(problem.getType().toString()))) {
            problem.setType(switch (statusCode.value()) {
                case 404 -> BatchProblemTypes.NOT_FOUND;
                case 400 -> BatchProblemTypes.MALFORMED_REQUEST;
                default -> statusCode.is5xxServerError() ? BatchProblemTypes.INTERNAL : BatchProblemTypes.UNSUPPORTED_REQUEST;
            });
        }
        return super.handleExceptionInternal(ex, body, headers, statusCode, request);
    }

    static ProblemDetail problem(HttpStatus status, URI type, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type);
        problem.setTitle(title);
        return problem;
    }

    /** Names the field and the expected shape, without echoing the payload back. */
    private static String describe(HttpMessageNotReadableException ex) {
        Throwable cause = ex.getMostSpecificCause();
        if (cause instanceof DatabindException databind && !databind.getPath().isEmpty()) {
            String field = databind.getPath().stream()
                .map(ref -> ref.getPropertyName() != null ? ref.getPropertyName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."));
            return "field '" + field + "' has the wrong type or format";
        }
        if (cause instanceof JacksonException) {
            return "request body is not valid JSON";
        }
        return "request body is missing or unreadable";
    }
}
