package io.sluice.api.auth;

import java.util.Arrays;
import java.util.Collection;
import java.util.Set;

import io.sluice.web.text.SafeText;

/**
 * API clients for administrators, the same rules whether the console or {@code /api/v1/clients} asks:
 * a name of 1-200 printable characters, a known tier, at least one known scope; a revoked client's
 * tier and scopes cannot change. Each change returns what the audit entry records (never a key).
 */
public class ClientAdministration {

    /** What one change did, for the audit log. */
    public record Change(String action, String target, String before, String after) {
    }

    /** A created client, its key (shown once) and the audit line. */
    public record Created(IssuedKey issued, Change change) {
    }

    public static class RevokedClientException extends IllegalArgumentException {
        RevokedClientException(String message) {
            super(message);
        }
    }

    public static class UnknownClientException extends IllegalArgumentException {
        UnknownClientException(long id) {
            super("no API client " + id);
        }
    }

    private final ApiKeys keys;

    public ClientAdministration(ApiKeys keys) {
        this.keys = keys;
    }

    public Created create(String name, String tier, Collection<String> scopes) {
        String clean = name == null ? "" : name.strip();
        if (clean.isEmpty() || clean.length() > 200 || SafeText.hasControl(clean)) {
            throw new IllegalArgumentException("a client needs a name of 1-200 printable characters");
        }
        ClientTier clientTier = tier(tier);
        Set<ApiScope> granted = ApiScope.parse(scopes);
        IssuedKey issued = keys.create(clean, clientTier, granted);
        return new Created(issued, new Change("client.create", target(issued.client().id(), clean), null,
            "tier=" + clientTier + ", scopes=" + ApiScope.wire(granted) + ", key prefix " + issued.client().keyPrefix()));
    }

    public Change revoke(long id) {
        ApiKeys.ClientRecord before = find(id);
        if (!keys.revoke(id)) {
            throw new RevokedClientException("client " + id + " is already revoked");
        }
        return new Change("client.revoke", target(id, before.name()), "active", "revoked");
    }

    public Change setTier(long id, String tier) {
        ClientTier next = tier(tier);
        ApiKeys.ClientRecord before = live(id);
        keys.setTier(id, next);
        return new Change("client.tier", target(id, before.name()), "tier=" + before.tier(), "tier=" + next);
    }

    public Change setScopes(long id, Collection<String> scopes) {
        Set<ApiScope> next = ApiScope.parse(scopes);
        ApiKeys.ClientRecord before = live(id);
        keys.setScopes(id, next);
        return new Change("client.scopes", target(id, before.name()), "scopes=" + before.scopeNames(),
            "scopes=" + ApiScope.wire(next));
    }

    public ApiKeys.ClientRecord find(long id) {
        return keys.find(id).orElseThrow(() -> new UnknownClientException(id));
    }

    private ApiKeys.ClientRecord live(long id) {
        ApiKeys.ClientRecord record = find(id);
        if (record.revoked()) {
            throw new RevokedClientException("client " + id + " is revoked; its tier and scopes cannot change");
        }
        return record;
    }

    private static String target(long id, String name) {
        return "client " + id + " (" + name + ")";
    }

    static ClientTier tier(String tier) {
        try {
            return ClientTier.valueOf(tier == null ? "" : tier.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tier must be one of " + Arrays.toString(ClientTier.values()));
        }
    }
}
