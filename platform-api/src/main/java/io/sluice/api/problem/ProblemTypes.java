package io.sluice.api.problem;

import java.net.URI;

/**
 * Stable RFC 9457 problem {@code type} URIs. Clients may switch on them; they never change meaning.
 * Each one is described in docs/api-errors.md.
 */
public final class ProblemTypes {

    private static final String BASE = "https://sluice.dev/problems/";

    /** A field failed validation (empty, too long, out of range). */
    public static final URI INVALID_REQUEST = URI.create(BASE + "invalid-request");
    /** The body is not JSON, or a field has the wrong type. */
    public static final URI MALFORMED_REQUEST = URI.create(BASE + "malformed-request");
    /** The body exceeds the request size limit. */
    public static final URI PAYLOAD_TOO_LARGE = URI.create(BASE + "payload-too-large");
    /** Content type or method the endpoint does not take. */
    public static final URI UNSUPPORTED_REQUEST = URI.create(BASE + "unsupported-request");
    /** No such resource. */
    public static final URI NOT_FOUND = URI.create(BASE + "not-found");
    /** Capacity is exhausted right now; retry after the Retry-After header. */
    public static final URI SATURATED = URI.create(BASE + "saturated");
    /** No API key, or an unknown or revoked one. */
    public static final URI UNAUTHORIZED = URI.create(BASE + "unauthorized");
    /** Too many requests for this user or for the platform right now; retry after Retry-After. */
    public static final URI RATE_LIMITED = URI.create(BASE + "rate-limited");
    /** Something failed on our side; the request id is in the log. */
    public static final URI INTERNAL = URI.create(BASE + "internal");

    private ProblemTypes() {
    }
}
