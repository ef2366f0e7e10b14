package io.sluice.batch.api;

import io.sluice.batch.faq.FaqCandidateReview;
import io.sluice.batch.jobs.JobControlException;
import io.sluice.batch.tasks.TaskValidationException;
import io.sluice.problem.ProblemExceptionHandler;
import io.sluice.problem.ProblemTypes;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Errors of the batch endpoints as RFC 9457 problem+json with stable types ({@link ProblemTypes}). */
@RestControllerAdvice(basePackages = "io.sluice.batch.api")
public class BatchApiExceptionHandler extends ProblemExceptionHandler {

    @ExceptionHandler(TaskValidationException.class)
    ResponseEntity<ProblemDetail> invalidTask(TaskValidationException ex) {
        ProblemDetail problem = switch (ex.kind()) {
            case UNKNOWN_TYPE -> problem(HttpStatus.BAD_REQUEST, ProblemTypes.UNKNOWN_TASK_TYPE, "Unknown task type", ex.getMessage());
            case PAYLOAD_TOO_LARGE -> problem(HttpStatus.BAD_REQUEST, ProblemTypes.TASK_PAYLOAD_TOO_LARGE, "Task payload too large", ex.getMessage());
            case INVALID_PAYLOAD -> problem(HttpStatus.BAD_REQUEST, ProblemTypes.INVALID_REQUEST, "Invalid request", ex.getMessage());
            case IDEMPOTENCY_CONFLICT -> problem(HttpStatus.CONFLICT, ProblemTypes.IDEMPOTENCY_CONFLICT, "Idempotency key reused", ex.getMessage());
            case NOT_FOUND -> problem(HttpStatus.NOT_FOUND, ProblemTypes.NOT_FOUND, "Not found", ex.getMessage());
        };
        if (!ex.errors().isEmpty()) {
            problem.setProperty("errors", ex.errors());
        }
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    @ExceptionHandler(JobControlException.class)
    ResponseEntity<ProblemDetail> jobControl(JobControlException ex) {
        ProblemDetail problem = switch (ex.kind()) {
            case NOT_FOUND -> problem(HttpStatus.NOT_FOUND, ProblemTypes.NOT_FOUND, "Not found", ex.getMessage());
            case CONFLICT -> problem(HttpStatus.CONFLICT, ProblemTypes.JOB_STATE_CONFLICT, "Job state conflict", ex.getMessage());
            case INVALID -> problem(HttpStatus.BAD_REQUEST, ProblemTypes.INVALID_REQUEST, "Invalid request", ex.getMessage());
        };
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    @ExceptionHandler(FaqCandidateReview.ReviewException.class)
    ResponseEntity<ProblemDetail> review(FaqCandidateReview.ReviewException ex) {
        ProblemDetail problem = switch (ex.kind()) {
            case NOT_FOUND -> problem(HttpStatus.NOT_FOUND, ProblemTypes.NOT_FOUND, "Not found", ex.getMessage());
            case CONFLICT -> problem(HttpStatus.CONFLICT, ProblemTypes.FAQ_REVIEW_CONFLICT, "FAQ review conflict",
                ex.getMessage());
            case INVALID -> problem(HttpStatus.BAD_REQUEST, ProblemTypes.INVALID_REQUEST, "Invalid request", ex.getMessage());
        };
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    @ExceptionHandler(NotFoundException.class)
    ResponseEntity<ProblemDetail> notFound(NotFoundException ex) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND)
            .body(problem(HttpStatus.NOT_FOUND, ProblemTypes.NOT_FOUND, "Not found", ex.getMessage()));
    }
}
