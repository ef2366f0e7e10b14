package io.sluice.console.clients;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientAdministration;
import io.sluice.api.auth.IssuedKey;
import io.sluice.console.audit.AuditLog;

import org.springframework.stereotype.Service;

/**
 * API clients for admins, through platform-api's {@link ClientAdministration} (the same rules as
 * {@code /api/v1/clients}: a name, a tier, at least one scope; a revoked client's settings cannot change),
 * each change audited with the operator as actor. A change reaches requests on other instances once
 * their key cache expires ({@code sluice.ingress.auth.cache-ttl}).
 */
@Service
public class ApiClientAdmin {

    private final ClientAdministration clients;
    private final ApiKeys keys;
    private final AuditLog audit;

    public ApiClientAdmin(ClientAdministration clients, ApiKeys keys, AuditLog audit) {
        this.clients = clients;
        this.keys = keys;
        this.audit = audit;
    }

    public record Client(long id, String name, String keyPrefix, String tier, Set<String> scopes,
            OffsetDateTime createdAt, OffsetDateTime revokedAt) {
        public boolean revoked() {
            return revokedAt != null;
        }
    }

    public List<Client> all() {
        return keys.all().stream().map(r -> new Client(r.id(), r.name(), r.keyPrefix(), r.tier().name(), r.scopeNames(),
            r.createdAt(), r.revokedAt())).toList();
    }

    /** Creates a client; the key is in the result only (shown once, never stored or audited). */
    public IssuedKey create(String actor, String name, String tier, List<String> scopes) {
        ClientAdministration.Created created = clients.create(name, tier, scopes);
        record(actor, created.change());
        return created.issued();
    }

    public void revoke(String actor, long id) {
        record(actor, clients.revoke(id));
    }

    public void setTier(String actor, long id, String tier) {
        record(actor, clients.setTier(id, tier));
    }

    public void setScopes(String actor, long id, List<String> scopes) {
        record(actor, clients.setScopes(id, scopes));
    }

    private void record(String actor, ClientAdministration.Change change) {
        audit.record(actor, change.action(), change.target(), change.before(), change.after());
    }
}
