package io.sluice.api.problem;

import static io.sluice.problem.ProblemExceptionHandler.problem;

import java.util.Locale;

import io.sluice.api.ingress.RateLimitedException;
import io.sluice.governance.permit.SaturatedException;
import io.sluice.problem.ProblemExceptionHandler;
import io.sluice.problem.ProblemTypes;

import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisTimeoutException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Every chat API error as RFC 9457 problem+json with a stable {@code type} (see {@link ProblemTypes}). */
@RestControllerAdvice(basePackages = "io.sluice.api")
public class ApiExceptionHandler extends ProblemExceptionHandler {

    /** The chat API's validation messages already name their field ("message must not be blank"). */
    @Override
    protected String describe(FieldError error) {
        return error.getDefaultMessage();
    }

    @ExceptionHandler(SaturatedException.class)
    ResponseEntity<ProblemDetail> saturated(SaturatedException ex) {
        ProblemDetail problem = problem(HttpStatus.SERVICE_UNAVAILABLE, ProblemTypes.SATURATED, "Saturated",
            "All answering capacity is busy right now; please retry shortly.");
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1").body(problem);
    }

    /** Redis unreachable or too slow where a step could not go on without it: 503 with Retry-After, like the database. */
    @ExceptionHandler({RedisConnectionException.class, RedisTimeoutException.class})
    ResponseEntity<ProblemDetail> redisUnavailable(RuntimeException ex) {
        return storeUnavailable("Redis", ex);
    }

    @ExceptionHandler(RateLimitedException.class)
    ResponseEntity<ProblemDetail> rateLimited(RateLimitedException ex) {
        String detail = switch (ex.scope()) {
            case USER -> "Too many requests for this user; retry after " + ex.retryAfterSeconds() + " s.";
            case CLIENT -> "This client is at its share of the platform's admission rate; retry after "
                + ex.retryAfterSeconds() + " s.";
            case GLOBAL -> "The platform is at its admission rate right now; retry after " + ex.retryAfterSeconds() + " s.";
        };
        ProblemDetail problem = problem(HttpStatus.TOO_MANY_REQUESTS, ProblemTypes.RATE_LIMITED, "Too many requests",
            detail);
        problem.setProperty("scope", ex.scope().name().toLowerCase(Locale.ROOT));
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
            .header(HttpHeaders.RETRY_AFTER, Long.toString(ex.retryAfterSeconds()))
            .body(problem);
    }
}
