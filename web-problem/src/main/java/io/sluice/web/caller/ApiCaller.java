package io.sluice.web.caller;

import java.util.Objects;
import java.util.Set;

/**
 * The API client behind a request, as every module sees it (platform-api's key filter puts it on the
 * request under {@link #ATTRIBUTE}; batch-jobs reads it without depending on platform-api). Objects a
 * client creates (tasks, deferred answers, sessions, idempotency keys) belong to {@link #clientId()}.
 *
 * @param clientId api_client.id
 * @param name     the operator-facing name of the client
 * @param scopes   what the key may do ({@code chat}, {@code tasks}, {@code admin} ...)
 */
public record ApiCaller(long clientId, String name, Set<String> scopes) {

    /** Request attribute under which the authenticated caller is found. */
    public static final String ATTRIBUTE = "io.sluice.web.caller.ApiCaller";

    public ApiCaller {
        Objects.requireNonNull(name, "name");
        scopes = Set.copyOf(scopes);
    }

    /** How the caller is named in the audit log. */
    public String actor() {
        return "client " + clientId + " (" + name + ")";
    }

    /** The owner id of a caller, or null for an internal caller (a job, a test without the key filter). */
    public static Long ownerOf(ApiCaller caller) {
        return caller == null ? null : caller.clientId();
    }
}
