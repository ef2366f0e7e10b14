package io.sluice.console.gateway;

import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.sluice.api.openai.keys.RequestLog;
import io.sluice.console.audit.AuditLog;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.GatewayLiveConfig;
import io.sluice.governance.provider.ProviderPool;
import io.sluice.governance.route.ModelRoutes;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The gateway in the console: the providers as they are now (kind, base URL without credentials, calls in
 * flight, breaker, low on quota) and the /v1 request log with filters (key, model, provider, status,
 * tier, latency). Admins change a provider's limits and a route's targets here, on every instance
 * ({@link GatewayLiveConfig}: validated as at start-up, audited; a refused change leaves everything as it was).
 */
@Controller
class GatewayConsoleController {

    /** One provider row. */
    record ProviderRow(String name, String kind, String baseUrl, int inFlight, String breaker, boolean low, int permits,
            long rpm, long tpm, int breakerFailures, long breakerOpenForMs, long shiftBelowRequests, long shiftBelowTokens,
            boolean enabled) {
    }

    /** One route row: its targets as {@code provider:model:weight, …}. */
    record RouteRow(String key, String targets, String fallback, boolean changed) {
    }

    private final RequestLog requests;
    private final ObjectProvider<GatewayAssembly> gateway;
    private final AuditLog audit;
    private final io.sluice.api.openai.keys.KeyBudgets budgets;

    GatewayConsoleController(RequestLog requests, ObjectProvider<GatewayAssembly> gateway, AuditLog audit,
            io.sluice.api.openai.keys.KeyBudgets budgets) {
        this.budgets = budgets;
        this.requests = requests;
        this.gateway = gateway;
        this.audit = audit;
    }

    @GetMapping("/console/gateway")
    String gateway(@RequestParam(required = false) String key, @RequestParam(required = false) String model,
            @RequestParam(required = false) String provider, @RequestParam(required = false) String status,
            @RequestParam(required = false) String tier, @RequestParam(required = false) String minLatencyMs, Model page) {
        Long keyId = number(key);
        Integer statusCode = number(status) == null ? null : number(status).intValue();
        Integer latency = number(minLatencyMs) == null ? null : number(minLatencyMs).intValue();
        boolean badFilter = (blank(key) ? false : keyId == null) || (blank(status) ? false : statusCode == null)
            || (blank(minLatencyMs) ? false : latency == null);
        page.addAttribute("filterError", badFilter ? "Key, status and latency filters take whole numbers." : null);
        page.addAttribute("entries", badFilter ? List.of()
            : requests.find(new RequestLog.Filter(keyId, model, provider, statusCode, blank(tier) ? null : tier, latency), 200));
        page.addAttribute("key", key);
        page.addAttribute("model", model);
        page.addAttribute("provider", provider);
        page.addAttribute("status", status);
        page.addAttribute("tier", tier);
        page.addAttribute("minLatencyMs", minLatencyMs);
        page.addAttribute("providers", providers());
        page.addAttribute("routes", routes());
        // this month's spend per key and user (UTC), as recorded in gateway_spend
        page.addAttribute("spend", budgets.byKeyAndUser(java.time.LocalDate.now(java.time.ZoneOffset.UTC).withDayOfMonth(1),
            100));
        return "gateway";
    }

    @PostMapping("/console/gateway/providers/{name}")
    String provider(@PathVariable String name, @RequestParam Map<String, String> form, Principal actor, Model page,
            RedirectAttributes redirect) {
        GatewayLiveConfig live = live();
        try {
            GatewayLiveConfig.ProviderChange before = live.provider(name);
            GatewayLiveConfig.ProviderChange next = new GatewayLiveConfig.ProviderChange(
                (int) whole(form.get("permits"), "permits"), whole(form.get("rpm"), "RPM"), whole(form.get("tpm"), "TPM"),
                (int) whole(form.get("breakerFailures"), "breaker failures"),
                Duration.ofMillis(whole(form.get("breakerOpenForMs"), "breaker open for")),
                whole(form.get("shiftBelowRequests"), "shift below requests"),
                whole(form.get("shiftBelowTokens"), "shift below tokens"), form.containsKey("enabled"));
            live.setProvider(name, next);
            audit.record(actor.getName(), "gateway.provider", "provider " + name, before.toString(), next.toString());
        } catch (IllegalArgumentException e) {
            page.addAttribute("typed", form); // the form keeps what was typed
            return refused(page, "provider-" + name, e.getMessage());
        }
        redirect.addFlashAttribute("notice", "Provider " + name + " changed on every instance.");
        return "redirect:/console/gateway";
    }

    @PostMapping("/console/gateway/routes/{key}")
    String route(@PathVariable String key, @RequestParam String targets, @RequestParam(required = false) String fallback,
            Principal actor, Model page, RedirectAttributes redirect) {
        GatewayLiveConfig live = live();
        try {
            GatewayLiveConfig.RouteChange before = live.route(key);
            GatewayLiveConfig.RouteChange next = new GatewayLiveConfig.RouteChange(targets(targets), fallback);
            live.setRoute(key, next);
            audit.record(actor.getName(), "gateway.route", "route " + key, before.toString(), next.toString());
        } catch (IllegalArgumentException e) {
            page.addAttribute("typed", Map.of("targets", targets, "fallback", fallback == null ? "" : fallback));
            return refused(page, "route-" + key, e.getMessage());
        }
        redirect.addFlashAttribute("notice", "Route " + key + " changed on every instance.");
        return "redirect:/console/gateway";
    }

    @PostMapping("/console/gateway/reset")
    String reset(Principal actor, RedirectAttributes redirect) {
        GatewayLiveConfig live = live();
        String before = live.overrides().toString();
        live.resetToConfigured();
        audit.record(actor.getName(), "gateway.config-reset", "gateway", before, "as configured");
        redirect.addFlashAttribute("notice", "Providers and routes back to the configuration on every instance.");
        return "redirect:/console/gateway";
    }

    private String refused(Model page, String field, String message) {
        page.addAttribute("fieldError", field);
        page.addAttribute("fieldMessage", message);
        page.addAttribute("error", "Not changed: " + message);
        return gateway(null, null, null, null, null, null, page);
    }

    private GatewayLiveConfig live() {
        GatewayAssembly assembly = gateway.getIfAvailable();
        if (assembly == null || assembly.liveConfig() == null) {
            throw new IllegalStateException("no LLM provider is configured");
        }
        return assembly.liveConfig();
    }

    /** {@code provider:model:weight} separated by commas or new lines (weight optional, 1). */
    static List<ModelRoutes.Target> targets(String text) {
        List<ModelRoutes.Target> list = new ArrayList<>();
        for (String item : (text == null ? "" : text).split("[,\\n]")) {
            if (item.isBlank()) {
                continue;
            }
            String[] parts = item.strip().split(":");
            if (parts.length < 2 || parts.length > 3) {
                throw new IllegalArgumentException("a target is provider:model:weight, was '" + item.strip() + "'");
            }
            int weight = parts.length == 3 ? (int) whole(parts[2], "weight") : 1;
            list.add(new ModelRoutes.Target(parts[0].strip(), parts[1].strip(), weight));
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException("a route needs at least one target");
        }
        return list;
    }

    private static long whole(String value, String field) {
        try {
            return Long.parseLong(value == null ? "" : value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " must be a whole number, was '" + value + "'");
        }
    }

    private List<RouteRow> routes() {
        GatewayAssembly assembly = gateway.getIfAvailable();
        List<RouteRow> rows = new ArrayList<>();
        if (assembly == null || assembly.liveConfig() == null) {
            return rows;
        }
        GatewayLiveConfig live = assembly.liveConfig();
        for (String key : assembly.modelRoutes().models().keySet()) {
            GatewayLiveConfig.RouteChange r = live.route(key);
            rows.add(new RouteRow(key, String.join(", ", r.targets().stream()
                .map(t -> t.provider() + ":" + t.model() + ":" + t.weight()).toList()), r.fallback() == null ? "" : r.fallback(),
                live.overrides().routes().containsKey(key)));
        }
        return rows;
    }

    private List<ProviderRow> providers() {
        GatewayAssembly assembly = gateway.getIfAvailable();
        List<ProviderRow> rows = new ArrayList<>();
        if (assembly == null || assembly.providers() == null) {
            return rows;
        }
        for (ProviderPool.Member m : assembly.providers().members()) {
            rows.add(new ProviderRow(m.name(), m.endpoint().kind().name().toLowerCase(java.util.Locale.ROOT),
                m.endpoint().baseUrl().replaceAll("//[^@/]*@", "//***@"), m.inFlight(),
                m.breaker().state().name().toLowerCase(java.util.Locale.ROOT), m.low(), m.settings().permits(),
                m.settings().rpm(), m.settings().tpm(), m.settings().breakerFailures(),
                m.settings().breakerOpenFor().toMillis(), m.settings().shiftBelowRequests(), m.settings().shiftBelowTokens(),
                m.enabled()));
        }
        return rows;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static Long number(String s) {
        if (blank(s)) {
            return null;
        }
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
