package io.sluice.knowledge.ingest;

/** A document or FAQ entry was refused; nothing of it was stored. {@link #problem()} names why. */
public class IngestException extends RuntimeException {

    /** Why ingestion refused the input; stable names the API maps to problem types. */
    public enum Problem {
        EMPTY, BINARY, TOO_LARGE, UNSUPPORTED_TYPE, INVALID, NOT_FOUND, FAILED,
        /** a parsing limit (decompressed size, extracted text, parse time: {@link ParseLimits}) was exceeded */
        LIMITS_EXCEEDED
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

    private static final java.util.regex.Pattern PLAIN_ID = java.util.regex.Pattern.compile("[A-Za-z0-9._:/-]{1,64}");

    /**
     * How a message names what was refused: {@code what 'id'} when the id is a plain identifier, else just
     * {@code what}, so a message (an API problem's detail) never echoes arbitrary input back.
     */
    public static String named(String what, String id) {
        return id != null && PLAIN_ID.matcher(id).matches() ? what + " '" + id + "'" : what;
    }
}
