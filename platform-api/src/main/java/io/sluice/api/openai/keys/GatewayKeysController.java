package io.sluice.api.openai.keys;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import io.sluice.problem.ProblemExceptionHandler;
import io.sluice.problem.ProblemTypes;
import io.sluice.web.audit.AuditTrail;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Gateway keys for operators (admin scope: no rule in ApiScopeRules, so default-deny keeps it admin):
 * {@code GET|PUT /api/v1/gateway/keys/{clientId}/policy} (model scope, budgets, degraded opt-in; audited),
 * {@code GET /api/v1/gateway/keys/{clientId}/spend?from&to} (per day, user, model, provider), and
 * {@code GET /api/v1/gateway/requests?key&model&provider&status&tier&minLatencyMs&limit} (the /v1 request log).
 */
@RestController
@RequestMapping(path = "/api/v1/gateway", produces = MediaType.APPLICATION_JSON_VALUE)
public class GatewayKeysController {

    private final KeyBudgets budgets;
    private final RequestLog requests;
    private final JdbcClient jdbc;

    public GatewayKeysController(KeyBudgets budgets, RequestLog requests, JdbcClient jdbc) {
        this.budgets = budgets;
        this.requests = requests;
        this.jdbc = jdbc;
    }

    /** What a policy looks like on the wire. */
    public record PolicyView(List<String> allowedModels, Long dailyTokens, Long monthlyTokens, BigDecimal dailyCost,
            BigDecimal monthlyCost, boolean allowDegraded, boolean semanticCache, KeyBudgets.Spend today,
            KeyBudgets.Spend thisMonth) {
    }

    @GetMapping("/keys/{clientId}/policy")
    public PolicyView policy(@PathVariable long clientId) {
        requireClient(clientId);
        KeyPolicy p = budgets.policy(clientId);
        KeyBudgets.Spend[] spent = budgets.spent(clientId);
        return new PolicyView(p.allowedModels(), p.dailyTokens(), p.monthlyTokens(), p.dailyCost(), p.monthlyCost(),
            p.allowDegraded(), p.semanticCache(), spent[0], spent[1]);
    }

    @PutMapping(path = "/keys/{clientId}/policy", consumes = MediaType.APPLICATION_JSON_VALUE)
    public PolicyView setPolicy(@PathVariable long clientId, @RequestBody KeyPolicy policy, HttpServletRequest request) {
        requireClient(clientId);
        KeyPolicy before = budgets.setPolicy(clientId, policy);
        AuditTrail.note(request, "gateway.key-policy", "api_client " + clientId, before.toString(), policy.toString());
        return policy(clientId);
    }

    @GetMapping("/keys/{clientId}/spend")
    public List<KeyBudgets.SpendRow> spend(@PathVariable long clientId, @RequestParam(required = false) LocalDate from,
            @RequestParam(required = false) LocalDate to) {
        requireClient(clientId);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        return budgets.rows(clientId, from == null ? today.withDayOfMonth(1) : from, to == null ? today : to);
    }

    @GetMapping("/requests")
    public List<RequestLog.Entry> requests(@RequestParam(required = false) Long key,
            @RequestParam(required = false) String model, @RequestParam(required = false) String provider,
            @RequestParam(required = false) Integer status, @RequestParam(required = false) String tier,
            @RequestParam(required = false) Integer minLatencyMs, @RequestParam(defaultValue = "100") int limit) {
        return requests.find(new RequestLog.Filter(key, model, provider, status, tier, minLatencyMs), limit);
    }

    private void requireClient(long clientId) {
        Integer n = jdbc.sql("SELECT count(*) FROM api_client WHERE id = ?").param(clientId).query(Integer.class).single();
        if (n == 0) {
            throw new UnknownKey();
        }
    }

    static final class UnknownKey extends IllegalArgumentException {
        UnknownKey() {
            super("no such API client");
        }
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> refused(IllegalArgumentException e) {
        HttpStatus status = e instanceof UnknownKey ? HttpStatus.NOT_FOUND : HttpStatus.BAD_REQUEST;
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .body(ProblemExceptionHandler.problem(status, status == HttpStatus.NOT_FOUND ? ProblemTypes.NOT_FOUND
                : ProblemTypes.INVALID_REQUEST, status == HttpStatus.NOT_FOUND ? "Not found" : "Invalid request",
                e.getMessage()));
    }
}
