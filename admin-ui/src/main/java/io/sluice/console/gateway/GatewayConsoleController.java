package io.sluice.console.gateway;

import java.util.ArrayList;
import java.util.List;

import io.sluice.api.openai.keys.RequestLog;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.provider.ProviderPool;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The gateway in the console: the providers as they are now (kind, base URL without credentials, calls in
 * flight, breaker, low on quota) and the /v1 request log with filters (key, model, provider, status,
 * tier, latency). Read-only; provider settings change through configuration.
 */
@Controller
class GatewayConsoleController {

    /** One provider row. */
    record ProviderRow(String name, String kind, String baseUrl, int inFlight, String breaker, boolean low, int permits,
            long rpm, long tpm) {
    }

    private final RequestLog requests;
    private final ObjectProvider<GatewayAssembly> gateway;

    GatewayConsoleController(RequestLog requests, ObjectProvider<GatewayAssembly> gateway) {
        this.requests = requests;
        this.gateway = gateway;
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
        return "gateway";
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
                m.settings().rpm(), m.settings().tpm()));
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
