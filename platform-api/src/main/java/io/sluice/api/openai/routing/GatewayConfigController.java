package io.sluice.api.openai.routing;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.GatewayLiveConfig;
import io.sluice.governance.gateway.GatewayLiveConfig.ProviderChange;
import io.sluice.governance.gateway.GatewayLiveConfig.RouteChange;
import io.sluice.governance.provider.ProviderPool;
import io.sluice.governance.route.ModelRoutes;
import io.sluice.problem.ProblemExceptionHandler;
import io.sluice.problem.ProblemTypes;
import io.sluice.web.audit.AuditTrail;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Providers and routes changed live, cluster-wide (admin scope through {@code /api/v1/gateway/**}; audited):
 * {@code GET /api/v1/gateway/config}, {@code PUT /api/v1/gateway/config/providers/{name}} (fields left out keep
 * their value), {@code PUT /api/v1/gateway/config/routes/{key}}, {@code DELETE /api/v1/gateway/config} (back to
 * application.yml). A change start-up would refuse is a 400 problem and changes nothing.
 */
@RestController
@RequestMapping(path = "/api/v1/gateway/config", produces = MediaType.APPLICATION_JSON_VALUE)
public class GatewayConfigController {

    private final ObjectProvider<GatewayAssembly> gateway;

    public GatewayConfigController(ObjectProvider<GatewayAssembly> gateway) {
        this.gateway = gateway;
    }

    /** What the cluster runs with now, and which of it differs from the configuration. */
    public record ConfigView(Map<String, ProviderChange> providers, Map<String, RouteChange> routes,
            GatewayLiveConfig.Overrides overridden) {
    }

    /** A provider change: every field optional (absent = unchanged); {@code breakerOpenForMs} in milliseconds. */
    public record ProviderPatch(Integer permits, Long rpm, Long tpm, Integer breakerFailures, Long breakerOpenForMs,
            Long shiftBelowRequests, Long shiftBelowTokens, Boolean enabled) {

        ProviderChange over(ProviderChange c) {
            return new ProviderChange(permits != null ? permits : c.permits(), rpm != null ? rpm : c.rpm(),
                tpm != null ? tpm : c.tpm(), breakerFailures != null ? breakerFailures : c.breakerFailures(),
                breakerOpenForMs != null ? Duration.ofMillis(breakerOpenForMs) : c.breakerOpenFor(),
                shiftBelowRequests != null ? shiftBelowRequests : c.shiftBelowRequests(),
                shiftBelowTokens != null ? shiftBelowTokens : c.shiftBelowTokens(), enabled != null ? enabled : c.enabled());
        }
    }

    /** A route change: its targets (required) and fallback (absent = unchanged, "" = none). */
    public record RoutePatch(List<ModelRoutes.Target> targets, String fallback) {
    }

    @GetMapping
    public ConfigView config() {
        GatewayLiveConfig live = live();
        GatewayAssembly assembly = gateway.getObject();
        Map<String, ProviderChange> providers = new LinkedHashMap<>();
        for (ProviderPool.Member m : assembly.providers().members()) {
            providers.put(m.name(), live.provider(m.name()));
        }
        Map<String, RouteChange> routes = new LinkedHashMap<>();
        for (String key : assembly.modelRoutes().models().keySet()) {
            routes.put(key, live.route(key));
        }
        return new ConfigView(providers, routes, live.overrides());
    }

    @PutMapping(path = "/providers/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    public ProviderChange setProvider(@PathVariable String name, @RequestBody ProviderPatch patch,
            HttpServletRequest request) {
        GatewayLiveConfig live = live();
        if (!gateway.getObject().providers().contains(name)) {
            throw new NotFound("no provider '" + name + "'");
        }
        ProviderChange before = live.provider(name);
        ProviderChange next = patch.over(before);
        live.setProvider(name, next);
        AuditTrail.note(request, "gateway.provider", "provider " + name, before.toString(), next.toString());
        return live.provider(name);
    }

    @PutMapping(path = "/routes/{key}", consumes = MediaType.APPLICATION_JSON_VALUE)
    public RouteChange setRoute(@PathVariable String key, @RequestBody RoutePatch patch, HttpServletRequest request) {
        GatewayLiveConfig live = live();
        if (!gateway.getObject().modelRoutes().contains(key)) {
            throw new NotFound("no route '" + key + "'");
        }
        if (patch.targets() == null || patch.targets().isEmpty()) {
            throw new IllegalArgumentException("a route needs at least one target");
        }
        RouteChange before = live.route(key);
        RouteChange next = new RouteChange(patch.targets(), patch.fallback() == null ? before.fallback() : patch.fallback());
        live.setRoute(key, next);
        AuditTrail.note(request, "gateway.route", "route " + key, before.toString(), next.toString());
        return live.route(key);
    }

    @DeleteMapping
    public ConfigView reset(HttpServletRequest request) {
        GatewayLiveConfig live = live();
        String before = live.overrides().toString();
        live.resetToConfigured();
        AuditTrail.note(request, "gateway.config-reset", "gateway", before, "as configured");
        return config();
    }

    private GatewayLiveConfig live() {
        GatewayAssembly assembly = gateway.getIfAvailable();
        if (assembly == null || assembly.liveConfig() == null) {
            throw new NotFound("no LLM provider is configured");
        }
        return assembly.liveConfig();
    }

    static final class NotFound extends RuntimeException {
        NotFound(String message) {
            super(message);
        }
    }

    @ExceptionHandler(NotFound.class)
    ResponseEntity<ProblemDetail> notFound(NotFound e) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND).contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .body(ProblemExceptionHandler.problem(HttpStatus.NOT_FOUND, ProblemTypes.NOT_FOUND, "Not found", e.getMessage()));
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> refused(IllegalArgumentException e) {
        return ResponseEntity.status(HttpStatus.BAD_REQUEST).contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .body(ProblemExceptionHandler.problem(HttpStatus.BAD_REQUEST, ProblemTypes.INVALID_REQUEST, "Invalid request",
                "not changed: " + e.getMessage()));
    }
}
