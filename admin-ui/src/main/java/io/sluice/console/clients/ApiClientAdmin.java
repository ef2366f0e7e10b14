package io.sluice.console.clients;

import java.time.OffsetDateTime;
import java.util.List;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.auth.IssuedKey;
import io.sluice.console.audit.AuditLog;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * API clients for admins. Create and revoke go through platform-api's {@link ApiKeys}; listing and
 * setting the tier are not offered there, so they are plain SQL on {@code api_client} here. A tier
 * change reaches requests once {@code ApiKeys}' lookup cache expires ({@code sluice.ingress.auth.cache-ttl}).
 */
@Service
public class ApiClientAdmin {

    private final ApiKeys keys;
    private final JdbcClient jdbc;
    private final AuditLog audit;

    public ApiClientAdmin(ApiKeys keys, JdbcClient jdbc, AuditLog audit) {
        this.keys = keys;
        this.jdbc = jdbc;
        this.audit = audit;
    }

    public record Client(long id, String name, String keyPrefix, String tier, OffsetDateTime createdAt,
            OffsetDateTime revokedAt) {
        public boolean revoked() {
            return revokedAt != null;
        }
    }

    public List<Client> all() {
        return jdbc.sql("SELECT id, name, key_prefix, tier, created_at, revoked_at FROM api_client "
                + "ORDER BY revoked_at IS NOT NULL, id DESC LIMIT 500")
            .query((rs, n) -> new Client(rs.getLong("id"), rs.getString("name"), rs.getString("key_prefix"),
                rs.getString("tier"), rs.getObject("created_at", OffsetDateTime.class),
                rs.getObject("revoked_at", OffsetDateTime.class)))
            .list();
    }

    /** Creates a client; the key is in the result only (shown once, never stored or audited). */
    public IssuedKey create(String actor, String name, String tier) {
        String clean = name == null ? "" : name.strip();
        if (clean.isEmpty() || clean.length() > 200) {
            throw new IllegalArgumentException("a client needs a name of 1-200 characters");
        }
        ClientTier clientTier = tier(tier);
        IssuedKey issued = keys.create(clean, clientTier);
        audit.record(actor, "client.create", "client " + issued.client().id() + " (" + clean + ")", null,
            "tier=" + clientTier + ", key prefix " + issued.client().keyPrefix());
        return issued;
    }

    public void revoke(String actor, long id) {
        Client before = find(id);
        if (!keys.revoke(id)) {
            throw new IllegalArgumentException("client " + id + " is already revoked");
        }
        audit.record(actor, "client.revoke", "client " + id + " (" + before.name() + ")", "active", "revoked");
    }

    public void setTier(String actor, long id, String tier) {
        ClientTier next = tier(tier);
        Client before = find(id);
        jdbc.sql("UPDATE api_client SET tier = ? WHERE id = ?").params(next.name(), id).update();
        audit.record(actor, "client.tier", "client " + id + " (" + before.name() + ")", "tier=" + before.tier(),
            "tier=" + next);
    }

    private Client find(long id) {
        return jdbc.sql("SELECT id, name, key_prefix, tier, created_at, revoked_at FROM api_client WHERE id = ?")
            .param(id)
            .query((rs, n) -> new Client(rs.getLong("id"), rs.getString("name"), rs.getString("key_prefix"),
                rs.getString("tier"), rs.getObject("created_at", OffsetDateTime.class),
                rs.getObject("revoked_at", OffsetDateTime.class)))
            .optional()
            .orElseThrow(() -> new IllegalArgumentException("no API client " + id));
    }

    private static ClientTier tier(String tier) {
        try {
            return ClientTier.valueOf(tier);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("tier must be one of " + java.util.Arrays.toString(ClientTier.values()));
        }
    }
}
