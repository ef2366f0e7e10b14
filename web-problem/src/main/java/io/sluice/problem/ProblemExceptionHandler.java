package io.sluice.problem;

import java.net.URI;
import java.util.List;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.lang.Nullable;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;

/**
 * What every Sluice API does with errors that are not its own: validation (400 invalid-request, the
 * field errors listed), unreadable bodies (400 malformed-request, naming the field, never echoing the
 * payload), Spring MVC's standard errors (their status, a stable type), a database that cannot answer
 * right now (503 store-unavailable with Retry-After) and anything unexpected (500, logged, nothing
 * leaked). Each API's {@code @RestControllerAdvice} extends it and adds its own.
 */
public abstract class ProblemExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemExceptionHandler.class);

    /** The problem with the given status, stable type, title and detail. */
    public static ProblemDetail problem(HttpStatus status, URI type, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type);
        problem.setTitle(title);
        return problem;
    }

    /** One field error as the client reads it; the chat API's messages already name their field. */
    protected String describe(FieldError error) {
        return error.getField() + " " + error.getDefaultMessage();
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<String> errors = ex.getBindingResult().getFieldErrors().stream().map(this::describe).sorted().toList();
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, ProblemTypes.INVALID_REQUEST, "Invalid request",
            String.join("; ", errors));
        problem.setProperty("errors", errors);
        return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, ProblemTypes.MALFORMED_REQUEST, "Malformed request",
            describe(ex));
        return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    /**
     * How long a client is asked to wait when a store cannot answer: a pool that ran dry under a burst, a
     * statement timeout or a fail-over usually clears within seconds.
     */
    public static final long STORE_RETRY_AFTER_SECONDS = 2;

    /**
     * A database that cannot answer right now (no connection within the pool's timeout, the server gone, a
     * statement timed out) is not a fault of the request: 503 with Retry-After, so clients and load balancers
     * back off and retry, instead of a 500 they would report as a bug. Lock and version conflicts are not
     * this: they stay with the endpoint's own handling.
     */
    @ExceptionHandler({DataAccessResourceFailureException.class, TransientDataAccessResourceException.class,
        QueryTimeoutException.class})
    ResponseEntity<ProblemDetail> databaseUnavailable(RuntimeException ex) {
        return storeUnavailable("database", ex);
    }

    /** 503 store-unavailable with Retry-After, the store named in the log only (never the request). */
    protected static ResponseEntity<ProblemDetail> storeUnavailable(String store, RuntimeException ex) {
        Throwable cause = ex;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        log.warn("the {} could not answer an API request: {}: {}", store, ex.getClass().getSimpleName(), cause.toString());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
            .header(HttpHeaders.RETRY_AFTER, Long.toString(STORE_RETRY_AFTER_SECONDS))
            .body(problem(HttpStatus.SERVICE_UNAVAILABLE, ProblemTypes.STORE_UNAVAILABLE, "Store unavailable",
                "A store this request needs cannot answer right now; retry after the Retry-After header."));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception ex) {
        log.error("unexpected error while serving an API request", ex);
        return ResponseEntity.internalServerError().body(problem(HttpStatus.INTERNAL_SERVER_ERROR,
            ProblemTypes.INTERNAL, "Internal error", "The request could not be completed."));
    }

    /** Standard Spring MVC errors (405, 415, 404 ...) keep their status but get a stable type. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, @Nullable Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        if (body == null && ex instanceof org.springframework.web.ErrorResponse error) {
            body = error.getBody(); // ResponseStatusException and friends: their own problem, given a stable type below
        }
        if (body instanceof ProblemDetail problem && (problem.getType() == null
                || "about:blank".equals(problem.getType().toString()))) {
            problem.setType(switch (statusCode.value()) {
                case 404 -> ProblemTypes.NOT_FOUND;
                case 413 -> ProblemTypes.PAYLOAD_TOO_LARGE;
                case 400 -> ProblemTypes.MALFORMED_REQUEST;
                default -> statusCode.is5xxServerError() ? ProblemTypes.INTERNAL : ProblemTypes.UNSUPPORTED_REQUEST;
            });
        }
        return super.handleExceptionInternal(ex, body, headers, statusCode, request);
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
