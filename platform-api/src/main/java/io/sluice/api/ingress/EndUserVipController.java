package io.sluice.api.ingress;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import io.sluice.api.auth.ClientAdministration;
import io.sluice.api.masking.PiiMasker;
import io.sluice.web.audit.AuditTrail;
import io.sluice.web.caller.ApiCaller;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * VIP end users of a client (scope {@code admin}, under {@code /api/v1/clients/**}); each change is audited:
 *
 * <pre>
 * GET    /api/v1/clients/{id}/vip-users             → {"clientId", "users": [...]}
 * PUT    /api/v1/clients/{id}/vip-users/{userId}     → the user is VIP (their client's userId / the /v1 user)
 * DELETE /api/v1/clients/{id}/vip-users/{userId}     → back to the client's tier
 * </pre>
 * The user id is masked as the chat masks it before it keys anything, so the stored id is the one requests use.
 */
@RestController
@RequestMapping(path = "/api/v1/clients/{id}/vip-users", produces = MediaType.APPLICATION_JSON_VALUE)
public class EndUserVipController {

    private final EndUserVip vip;
    private final ClientAdministration clients;
    private final PiiMasker masker;

    public EndUserVipController(EndUserVip vip, ClientAdministration clients, PiiMasker masker) {
        this.vip = vip;
        this.clients = clients;
        this.masker = masker;
    }

    @GetMapping
    public Map<String, Object> list(@PathVariable long id) {
        clients.find(id);
        return Map.of("clientId", id, "users", vip.list(id, 1000));
    }

    @PutMapping("/{userId}")
    public Map<String, Object> mark(@PathVariable long id, @PathVariable String userId, HttpServletRequest request,
            @RequestAttribute(name = ApiCaller.ATTRIBUTE, required = false) ApiCaller caller) {
        return change(id, userId, true, request, caller);
    }

    @DeleteMapping("/{userId}")
    public Map<String, Object> unmark(@PathVariable long id, @PathVariable String userId, HttpServletRequest request,
            @RequestAttribute(name = ApiCaller.ATTRIBUTE, required = false) ApiCaller caller) {
        return change(id, userId, false, request, caller);
    }

    private Map<String, Object> change(long id, String userId, boolean next, HttpServletRequest request, ApiCaller caller) {
        clients.find(id);
        EndUserVip.check(userId);
        String user = masker.mask(userId);
        boolean before = vip.set(id, user, next, caller == null ? "api" : caller.name());
        AuditTrail.note(request, next ? "client.end-user-vip" : "client.end-user-vip.remove", "client " + id + " user " + user,
            before ? "VIP" : "STANDARD", next ? "VIP" : "STANDARD");
        return Map.of("clientId", id, "userId", user, "vip", next);
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> refused(IllegalArgumentException e) {
        HttpStatus status = e instanceof ClientAdministration.UnknownClientException ? HttpStatus.NOT_FOUND : HttpStatus.BAD_REQUEST;
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .body(io.sluice.problem.ProblemExceptionHandler.problem(status,
                status == HttpStatus.NOT_FOUND ? io.sluice.problem.ProblemTypes.NOT_FOUND : io.sluice.problem.ProblemTypes.INVALID_REQUEST,
                status == HttpStatus.NOT_FOUND ? "Not found" : "Invalid request", e.getMessage()));
    }
}
