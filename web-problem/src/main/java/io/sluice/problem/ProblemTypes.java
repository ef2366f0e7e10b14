package io.sluice.problem;

import java.net.URI;

/**
 * Every stable RFC 9457 problem {@code type} URI of Sluice's HTTP APIs, in one place. Clients may
 * switch on them; they never change meaning. Each one is described in docs/api-errors.md.
 */
public final class ProblemTypes {

    private static final String BASE = "https://sluice.dev/problems/";

    /** A field failed validation (empty, too long, out of range, missing payload field). */
    public static final URI INVALID_REQUEST = URI.create(BASE + "invalid-request");
    /** The body is not JSON, or a field has the wrong type. */
    public static final URI MALFORMED_REQUEST = URI.create(BASE + "malformed-request");
    /** The body exceeds the request size limit. */
    public static final URI PAYLOAD_TOO_LARGE = URI.create(BASE + "payload-too-large");
    /** Content type or method the endpoint does not take. */
    public static final URI UNSUPPORTED_REQUEST = URI.create(BASE + "unsupported-request");
    /** No such resource (session, task, job, job execution, candidate...). */
    public static final URI NOT_FOUND = URI.create(BASE + "not-found");
    /** Capacity is exhausted right now; retry after the Retry-After header. */
    public static final URI SATURATED = URI.create(BASE + "saturated");
    /** No API key, or an unknown or revoked one. */
    public static final URI UNAUTHORIZED = URI.create(BASE + "unauthorized");
    /** The API key is valid but lacks the scope this endpoint needs; the detail names the scope. */
    public static final URI INSUFFICIENT_SCOPE = URI.create(BASE + "insufficient-scope");
    /** The request body arrived too slowly (below the minimum data rate) or not within the read deadline. */
    public static final URI REQUEST_TIMEOUT = URI.create(BASE + "request-timeout");
    /** A document exceeded a parsing limit (decompressed size, extracted text or parse time); nothing was stored. */
    public static final URI DOCUMENT_LIMITS_EXCEEDED = URI.create(BASE + "document-limits-exceeded");
    /** The request line or headers exceed the server's header size limit. */
    public static final URI HEADERS_TOO_LARGE = URI.create(BASE + "headers-too-large");
    /** Too many requests for this user or for the platform right now; retry after Retry-After. */
    public static final URI RATE_LIMITED = URI.create(BASE + "rate-limited");
    /** The task type is not one Sluice knows; the detail lists the known ones. */
    public static final URI UNKNOWN_TASK_TYPE = URI.create(BASE + "unknown-task-type");
    /** The task payload is larger than sluice.batch.tasks.max-payload-bytes. */
    public static final URI TASK_PAYLOAD_TOO_LARGE = URI.create(BASE + "task-payload-too-large");
    /** The idempotency key was already used for a different task. */
    public static final URI IDEMPOTENCY_CONFLICT = URI.create(BASE + "idempotency-conflict");
    /** The job is in a state that does not allow this (stop a finished run, restart a completed one...). */
    public static final URI JOB_STATE_CONFLICT = URI.create(BASE + "job-state-conflict");
    /** A FAQ candidate was already reviewed, the FAQ key exists, or a snapshot version cannot be put back. */
    public static final URI FAQ_REVIEW_CONFLICT = URI.create(BASE + "faq-review-conflict");
    /** The API client is revoked (its settings cannot change any more). */
    public static final URI CLIENT_STATE_CONFLICT = URI.create(BASE + "client-state-conflict");
    /** The API key spent its gateway token or cost budget for the day or month (429, Retry-After: the renewal). */
    public static final URI BUDGET_EXCEEDED = URI.create(BASE + "budget-exceeded");
    /** A pair-verifier version may not be activated (worse than the answering one, or no L0 point): force it. */
    public static final URI MODEL_NOT_BETTER = URI.create(BASE + "model-not-better");
    /**
     * A store the request needs (PostgreSQL, Redis) cannot answer right now: no connection within the pool's
     * timeout, the server unreachable, a command or statement timed out. 503; retry after Retry-After.
     */
    public static final URI STORE_UNAVAILABLE = URI.create(BASE + "store-unavailable");
    /** Something failed on our side; the request id is in the log. */
    public static final URI INTERNAL = URI.create(BASE + "internal");

    private ProblemTypes() {
    }
}
