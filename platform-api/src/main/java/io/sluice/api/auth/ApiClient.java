package io.sluice.api.auth;

import java.util.Objects;

/**
 * An authenticated API client (never carries its key).
 *
 * @param id        api_client.id
 * @param name      operator-facing name
 * @param keyPrefix the first characters of its key, to recognise it in the console
 * @param tier      STANDARD or VIP
 */
public record ApiClient(long id, String name, String keyPrefix, ClientTier tier) {

    /** Request attribute under which {@link ApiKeyFilter} leaves the caller. */
    public static final String ATTRIBUTE = "io.sluice.api.auth.ApiClient";

    public ApiClient {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tier, "tier");
    }

    public boolean vip() {
        return tier == ClientTier.VIP;
    }
}
