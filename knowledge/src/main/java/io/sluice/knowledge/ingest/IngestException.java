package io.sluice.knowledge.ingest;

/** A document or FAQ entry was refused; nothing of it was stored. {@link #problem()} names why. */
public class IngestException extends RuntimeException {

    /** Why ingestion refused the input; stable names the API maps to problem types. */
    public enum Problem {
        EMPTY, BINARY, TOO_LARGE, UNSUPPORTED_TYPE, INVALID, NOT_FOUND, FAILED
    }

    private final Problem problem;

    public IngestException(Problem problem, String message) {
        super(message);
        this.problem = problem;
    }

    public IngestException(Problem problem, String message, Throwable cause) {
        super(message, cause);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
