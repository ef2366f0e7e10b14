package io.sluice.api.auth;

import java.net.URI;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import io.sluice.web.audit.AuditTrail;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * API clients over REST for operator keys (scope {@code admin}, see {@link ApiScopeRules}):
 *
 * <pre>
 * GET  /api/v1/clients                       every client (never a key)
 * POST /api/v1/clients  {"name", "tier"?, "scopes": [...]}   → 201 with the new key, shown this once
 * GET  /api/v1/clients/{id}
 * PUT  /api/v1/clients/{id}/tier    {"tier": "VIP"}
 * PUT  /api/v1/clients/{id}/scopes  {"scopes": ["chat", "tasks"]}
 * POST /api/v1/clients/{id}/revoke
 * </pre>
 * Each change is audited (actor = the calling client) like the console's.
 */
@RestController
@RequestMapping(path = "/api/v1/clients", produces = MediaType.APPLICATION_JSON_VALUE)
public class ApiClientController {

    public record CreateRequest(String name, String tier, List<String> scopes) {
    }

    public record TierRequest(String tier) {
    }

    public record ScopesRequest(List<String> scopes) {
    }

    /** A client as the API shows it; {@code key} only in the answer to its creation. */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    public record ClientView(long id, String name, String keyPrefix, String tier, Set<String> scopes,
            OffsetDateTime createdAt, OffsetDateTime revokedAt, String key) {

        static ClientView of(ApiKeys.ClientRecord r) {
            return new ClientView(r.id(), r.name(), r.keyPrefix(), r.tier().name(), r.scopeNames(), r.createdAt(),
                r.revokedAt(), null);
        }
    }

    private final ClientAdministration clients;
    private final ApiKeys keys;

    public ApiClientController(ClientAdministration clients, ApiKeys keys) {
        this.clients = clients;
        this.keys = keys;
    }

    @GetMapping
    public List<ClientView> list() {
        return keys.all().stream().map(ClientView::of).toList();
    }

    @GetMapping("/{id}")
    public ClientView get(@PathVariable long id) {
        return ClientView.of(clients.find(id));
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<ClientView> create(@RequestBody CreateRequest body, HttpServletRequest request) {
        ClientAdministration.Created created = clients.create(body.name(), body.tier() == null ? "STANDARD" : body.tier(),
            body.scopes());
        note(request, created.change());
        ApiClient c = created.issued().client();
        return ResponseEntity.status(HttpStatus.CREATED).location(URI.create("/api/v1/clients/" + c.id()))
            .body(new ClientView(c.id(), c.name(), c.keyPrefix(), c.tier().name(), ApiScope.wire(c.scopes()),
                null, null, created.issued().key()));
    }

    @PutMapping(path = "/{id}/tier", consumes = MediaType.APPLICATION_JSON_VALUE)
    public ClientView tier(@PathVariable long id, @RequestBody TierRequest body, HttpServletRequest request) {
        note(request, clients.setTier(id, body.tier()));
        return ClientView.of(clients.find(id));
    }

    @PutMapping(path = "/{id}/scopes", consumes = MediaType.APPLICATION_JSON_VALUE)
    public ClientView scopes(@PathVariable long id, @RequestBody ScopesRequest body, HttpServletRequest request) {
        note(request, clients.setScopes(id, body.scopes()));
        return ClientView.of(clients.find(id));
    }

    @PostMapping("/{id}/revoke")
    public ClientView revoke(@PathVariable long id, HttpServletRequest request) {
        note(request, clients.revoke(id));
        return ClientView.of(clients.find(id));
    }

    @org.springframework.web.bind.annotation.ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<org.springframework.http.ProblemDetail> refused(IllegalArgumentException e) {
        HttpStatus status = e instanceof ClientAdministration.UnknownClientException ? HttpStatus.NOT_FOUND
            : e instanceof ClientAdministration.RevokedClientException ? HttpStatus.CONFLICT : HttpStatus.BAD_REQUEST;
        java.net.URI type = switch (status) {
            case NOT_FOUND -> io.sluice.problem.ProblemTypes.NOT_FOUND;
            case CONFLICT -> io.sluice.problem.ProblemTypes.CLIENT_STATE_CONFLICT;
            default -> io.sluice.problem.ProblemTypes.INVALID_REQUEST;
        };
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .body(io.sluice.problem.ProblemExceptionHandler.problem(status, type,
                status == HttpStatus.BAD_REQUEST ? "Invalid request" : status == HttpStatus.NOT_FOUND ? "Not found"
                    : "Client state conflict", e.getMessage()));
    }

    private static void note(HttpServletRequest request, ClientAdministration.Change change) {
        AuditTrail.note(request, change.action(), change.target(), change.before(), change.after());
    }
}
