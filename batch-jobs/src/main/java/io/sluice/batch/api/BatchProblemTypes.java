package io.sluice.batch.api;

import java.net.URI;

/**
 * Stable RFC 9457 problem {@code type} URIs of the batch API (same base and style as the chat API's).
 * Clients may switch on them; they never change meaning. Described in docs/batch.md.
 */
public final class BatchProblemTypes {

    private static final String BASE = "https://sluice.dev/problems/";

    /** A field failed validation (missing or malformed payload field, priority out of range...). */
    public static final URI INVALID_REQUEST = URI.create(BASE + "invalid-request");
    /** The body is not JSON, or a field has the wrong type. */
    public static final URI MALFORMED_REQUEST = URI.create(BASE + "malformed-request");
    /** The task type is not one Sluice knows; the detail lists the known ones. */
    public static final URI UNKNOWN_TASK_TYPE = URI.create(BASE + "unknown-task-type");
    /** The task payload is larger than sluice.batch.tasks.max-payload-bytes. */
    public static final URI TASK_PAYLOAD_TOO_LARGE = URI.create(BASE + "task-payload-too-large");
    /** The idempotency key was already used for a different task. */
    public static final URI IDEMPOTENCY_CONFLICT = URI.create(BASE + "idempotency-conflict");
    /** No such task, job or job execution. */
    public static final URI NOT_FOUND = URI.create(BASE + "not-found");
    /** The job is in a state that does not allow this (stop a finished run, restart a completed one...). */
    public static final URI JOB_STATE_CONFLICT = URI.create(BASE + "job-state-conflict");
    /** A FAQ candidate was already reviewed, the FAQ key exists, or a snapshot version cannot be put back. */
    public static final URI FAQ_REVIEW_CONFLICT = URI.create(BASE + "faq-review-conflict");
    /** Content type or method the endpoint does not take. */
    public static final URI UNSUPPORTED_REQUEST = URI.create(BASE + "unsupported-request");
    /** Something failed on our side. */
    public static final URI INTERNAL = URI.create(BASE + "internal");

    private BatchProblemTypes() {
    }
}
