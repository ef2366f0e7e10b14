package io.sluice.api.auth;

/**
 * A freshly created client and its key. The key exists in clear only here, once: the database
 * keeps its SHA-256 hash. {@link #toString()} never shows it, so logging this by accident is safe.
 */
public record IssuedKey(ApiClient client, String key) {

    @Override
    public String toString() {
        return "IssuedKey[client=" + client + ", key=" + client.keyPrefix() + "…]";
    }
}
