package io.sluice.console.governance;

import java.security.Principal;
import java.util.Map;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Governance: lanes, permits, Sentinel rules, the degradation level and the derived-threshold calculator. */
@Controller
class GovernanceController {

    private final GovernanceService governance;

    GovernanceController(GovernanceService governance) {
        this.governance = governance;
    }

    @GetMapping("/console/governance")
    String page(@RequestParam Map<String, String> query, Model model) {
        model.addAttribute("lanes", governance.lanes());
        model.addAttribute("providerConfigured", governance.providerConfigured());
        model.addAttribute("level", governance.level());
        model.addAttribute("levels", governance.levels());
        model.addAttribute("tokens", governance.tokens());
        model.addAttribute("userLimits", governance.userLimits());
        model.addAttribute("configuredUserLimits", governance.configuredUserLimits());
        model.addAttribute("thresholdsOverridden", governance.cacheThresholdsOverridden());
        String c = query.getOrDefault("providerConcurrency", "");
        String b = query.getOrDefault("callsPerMinute", "");
        String p = query.getOrDefault("p99Ms", "");
        String measured = query.get("measured");
        if (measured != null) { // "use the measured p99 of this lane"
            try {
                var p99 = governance.measuredP99(measured);
                if (p99.isPresent()) {
                    p = String.valueOf(p99.get().toMillis());
                    model.addAttribute("calcMeasured", measured);
                } else {
                    model.addAttribute("calcError", "too few " + measured + " LLM calls measured on this instance yet "
                        + "(at least " + io.sluice.governance.derived.MeasuredLatency.MIN_CALLS + ")");
                }
            } catch (IllegalArgumentException e) {
                model.addAttribute("calcError", e.getMessage());
            }
        }
        model.addAttribute("calc", Map.of("providerConcurrency", c, "callsPerMinute", b, "p99Ms", p));
        if (!model.containsAttribute("calcError") && (!c.isBlank() || !b.isBlank() || !p.isBlank())) {
            try {
                model.addAttribute("derived", governance.derive(c, b, p));
            } catch (IllegalArgumentException e) {
                model.addAttribute("calcError", e.getMessage());
            }
        }
        return "governance";
    }

    @PostMapping("/console/governance/permits/{lane}")
    String resize(@PathVariable String lane, @RequestParam String permits, Principal actor, Model model,
            RedirectAttributes redirect) {
        try {
            governance.resize(actor.getName(), lane, permits);
        } catch (IllegalArgumentException e) {
            return refused(model, "permits-" + lane, e.getMessage());
        }
        redirect.addFlashAttribute("notice", "Lane " + lane + " now has " + permits.strip() + " permits cluster-wide.");
        return "redirect:/console/governance";
    }

    @PostMapping("/console/governance/derived/apply")
    String applyDerived(@RequestParam String lane, @RequestParam String providerConcurrency,
            @RequestParam String callsPerMinute, @RequestParam String p99Ms, Principal actor, Model model,
            RedirectAttributes redirect) {
        try {
            var derived = governance.applyDerived(actor.getName(), lane, providerConcurrency, callsPerMinute, p99Ms);
            redirect.addFlashAttribute("notice", "Lane " + lane + " now has " + derived.permits()
                + " permits cluster-wide: " + derived.explanation());
        } catch (IllegalArgumentException e) {
            return refused(model, "calc", e.getMessage());
        }
        return "redirect:/console/governance";
    }

    @PostMapping("/console/governance/rules/{lane}")
    String rules(@PathVariable String lane, @RequestParam Map<String, String> form, Principal actor, Model model,
            RedirectAttributes redirect) {
        try {
            governance.replaceRules(actor.getName(), lane, form);
        } catch (IllegalArgumentException e) {
            model.addAttribute("rulesForm", form);
            return refused(model, "rules-" + lane, e.getMessage());
        }
        redirect.addFlashAttribute("notice", "Sentinel rules of lane " + lane + " replaced on every instance.");
        return "redirect:/console/governance";
    }

    @PostMapping("/console/governance/level/pin")
    String pin(@RequestParam String level, @RequestParam(required = false) String reason, Principal actor, Model model,
            RedirectAttributes redirect) {
        try {
            governance.pin(actor.getName(), level, reason);
        } catch (IllegalArgumentException e) {
            return refused(model, "pin", e.getMessage());
        }
        redirect.addFlashAttribute("notice", "Degradation level pinned at " + level + " on every instance.");
        return "redirect:/console/governance";
    }

    @PostMapping("/console/governance/level/unpin")
    String unpin(Principal actor, RedirectAttributes redirect) {
        governance.unpin(actor.getName());
        redirect.addFlashAttribute("notice", "Pin removed: the level follows the measured signals again.");
        return "redirect:/console/governance";
    }

    @PostMapping("/console/governance/user-limits")
    String userLimits(@RequestParam Map<String, String> form, Principal actor, Model model, RedirectAttributes redirect) {
        boolean everywhere;
        try {
            everywhere = governance.setUserLimits(actor.getName(), form);
        } catch (IllegalArgumentException e) {
            model.addAttribute("limitsForm", form);
            return refused(model, "user-limits", e.getMessage());
        }
        redirect.addFlashAttribute(everywhere ? "notice" : "error", "Per-user limits now " + governance.userLimits()
            + (everywhere ? " on every instance." : " on this instance only: Redis is unreachable."));
        return "redirect:/console/governance#user-limits";
    }

    @PostMapping("/console/governance/user-limits/reset")
    String resetUserLimits(Principal actor, RedirectAttributes redirect) {
        governance.resetUserLimits(actor.getName());
        redirect.addFlashAttribute("notice", "Per-user limits back to the configured " + governance.userLimits() + ".");
        return "redirect:/console/governance#user-limits";
    }

    @PostMapping("/console/governance/cache-thresholds")
    String cacheThresholds(@RequestParam Map<String, String> form, Principal actor, Model model,
            RedirectAttributes redirect) {
        try {
            governance.setCacheThresholds(actor.getName(), form);
        } catch (IllegalArgumentException e) {
            model.addAttribute("thresholdsForm", form);
            return refused(model, "cache-thresholds", e.getMessage());
        }
        redirect.addFlashAttribute("notice", "Semantic-cache thresholds replaced on every instance.");
        return "redirect:/console/governance#cache-thresholds";
    }

    @PostMapping("/console/governance/cache-thresholds/reset")
    String resetCacheThresholds(Principal actor, RedirectAttributes redirect) {
        governance.resetCacheThresholds(actor.getName());
        redirect.addFlashAttribute("notice", "Semantic-cache thresholds back to the configured ones.");
        return "redirect:/console/governance#cache-thresholds";
    }

    /** Re-renders the page with the message next to the form that failed (status 400), values unchanged. */
    private String refused(Model model, String field, String message) {
        model.addAttribute("fieldError", field);
        model.addAttribute("fieldMessage", message);
        model.addAttribute("error", "Not changed: " + message);
        page(Map.of(), model);
        return "governance";
    }
}
