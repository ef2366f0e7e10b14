package io.sluice.api.auth;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

import io.sluice.web.caller.ApiCaller;

/**
 * An authenticated API client (never carries its key).
 *
 * @param id        api_client.id
 * @param name      operator-facing name
 * @param keyPrefix the first characters of its key, to recognise it in the console
 * @param tier      STANDARD or VIP
 * @param scopes    what its key may do
 */
public record ApiClient(long id, String name, String keyPrefix, ClientTier tier, Set<ApiScope> scopes) {

    /** Request attribute under which {@link ApiKeyFilter} leaves the caller. */
    public static final String ATTRIBUTE = "io.sluice.api.auth.ApiClient";

    public ApiClient {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tier, "tier");
        scopes = scopes == null || scopes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(scopes));
    }

    /** A client with the demo's scopes (chat + openai). */
    public ApiClient(long id, String name, String keyPrefix, ClientTier tier) {
        this(id, name, keyPrefix, tier, ApiScope.DEMO);
    }

    public boolean vip() {
        return tier == ClientTier.VIP;
    }

    public boolean may(ApiScope scope) {
        return scope.grantedBy(scopes);
    }

    /** The caller as modules without platform-api see it. */
    public ApiCaller caller() {
        return new ApiCaller(id, name, ApiScope.wire(scopes));
    }
}
