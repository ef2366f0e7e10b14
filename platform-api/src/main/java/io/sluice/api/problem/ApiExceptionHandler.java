package io.sluice.api.problem;

import java.util.stream.Collectors;

import io.sluice.api.ingress.RateLimitedException;
import io.sluice.governance.permit.SaturatedException;

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

/** Every API error as RFC 9457 problem+json with a stable {@code type} (see {@link ProblemTypes}). */
@RestControllerAdvice(basePackages = "io.sluice.api")
public class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String detail = ex.getBindingResult().getFieldErrors().stream()
            .map(error -> error.getDefaultMessage())
            .sorted()
            .collect(Collectors.joining("; "));
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, ProblemTypes.INVALID_REQUEST, "Invalid request", detail);
        return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, ProblemTypes.MALFORMED_REQUEST, "Malformed request",
            describe(ex));
        return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @ExceptionHandler(SaturatedException.class)
    ResponseEntity<ProblemDetail> saturated(SaturatedException ex) {
        ProblemDetail problem = problem(HttpStatus.SERVICE_UNAVAILABLE, ProblemTypes.SATURATED, "Saturated",
            "All answering capacity is busy right now; please retry shortly.");
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1").body(problem);
    }

    @ExceptionHandler(RateLimitedException.class)
    ResponseEntity<ProblemDetail> rateLimited(RateLimitedException ex) {
        String detail = ex.scope() == RateLimitedException.Scope.USER
            ? "Too many requests for this user; retry after " + ex.retryAfterSeconds() + " s."
            : "The platform is at its admission rate right now; retry after " + ex.retryAfterSeconds() + " s.";
        ProblemDetail problem = problem(HttpStatus.TOO_MANY_REQUESTS, ProblemTypes.RATE_LIMITED, "Too many requests",
            detail);
        problem.setProperty("scope", ex.scope().name().toLowerCase(java.util.Locale.ROOT));
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
            .header(HttpHeaders.RETRY_AFTER, Long.toString(ex.retryAfterSeconds()))
            .body(problem);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception ex) {
        log.error("unexpected error while serving an API request", ex);
        ProblemDetail problem = problem(HttpStatus.INTERNAL_SERVER_ERROR, ProblemTypes.INTERNAL, "Internal error",
            "The request could not be completed.");
        return ResponseEntity.internalServerError().body(problem);
    }

    /** Standard Spring MVC errors (405, 415, 404 ...) keep their status but get a stable type. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, @Nullable Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
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

    static ProblemDetail problem(HttpStatus status, java.net.URI type, String title, String detail) {
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
