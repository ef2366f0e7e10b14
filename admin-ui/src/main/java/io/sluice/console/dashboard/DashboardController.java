package io.sluice.console.dashboard;

import java.util.ArrayList;
import java.security.Principal;
import java.util.List;
import java.util.Map;

import io.sluice.knowledge.sample.KnowledgeBootstrap;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

@Controller
class DashboardController {

    private final DashboardQueries queries;
    private final DashboardMetrics metrics;
    private final KnowledgeBootstrap bootstrap;
    private final TokenAllocationConsole allocation;

    DashboardController(DashboardQueries queries, DashboardMetrics metrics, KnowledgeBootstrap bootstrap,
            TokenAllocationConsole allocation) {
        this.allocation = allocation;
        this.queries = queries;
        this.metrics = metrics;
        this.bootstrap = bootstrap;
    }

    @GetMapping("/console")
    String dashboard(Model model) {
        stats(model);
        model.addAttribute("allocationSettings", allocation.view());
        return "dashboard";
    }

    /** The live part, refreshed by htmx every few seconds. */
    @GetMapping("/console/dashboard/stats")
    String stats(Model model) {
        model.addAttribute("permits", queries.permits());
        model.addAttribute("latency", queries.latency());
        model.addAttribute("queue", queries.workQueue());
        model.addAttribute("figures", metrics.figures());
        model.addAttribute("breakers", queries.breakers());
        model.addAttribute("tokens", queries.tokens());
        model.addAttribute("level", queries.level());
        model.addAttribute("admissionQueue", queries.admissionQueue());
        model.addAttribute("admissionQueueByClass", queries.admissionQueueByClass());
        model.addAttribute("knowledgeLoad", bootstrap.progress());
        model.addAttribute("allocation", allocation.view());
        return "dashboard :: stats";
    }

    /** Share and reserve of the token allocation, on every instance (audited). */
    @PostMapping("/console/dashboard/token-allocation")
    String updateAllocation(@RequestParam Map<String, String> form, Principal actor, RedirectAttributes redirect) {
        try {
            boolean everywhere = allocation.update(actor.getName(), form);
            TokenAllocationConsole.View now = allocation.view();
            redirect.addFlashAttribute(everywhere ? "notice" : "error", "Token allocation now: share "
                + (now == null ? "?" : now.sharePercent()) + " %, reserve " + (now == null ? "?" : now.reservePercent())
                + " %" + (everywhere ? " on every instance." : " on this instance only: Redis is unreachable."));
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", "Token allocation unchanged: " + e.getMessage());
        }
        return "redirect:/console#token-allocation";
    }

    @PostMapping("/console/dashboard/token-allocation/reset")
    String resetAllocation(Principal actor, RedirectAttributes redirect) {
        try {
            allocation.reset(actor.getName());
            redirect.addFlashAttribute("notice", "Token allocation back to the configured share and reserve.");
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/console#token-allocation";
    }

    /** Traffic over the last hour from this instance's meters (uPlot columns, see {@link DashboardMetrics#series}). */
    @GetMapping("/console/dashboard/traffic.json")
    @ResponseBody
    List<List<Number>> traffic() {
        return metrics.series();
    }

    /** uPlot's column layout: [[x...], [F4...], [F3...], [F2...], [F1...], [F0...]]. */
    @GetMapping("/console/dashboard/answers-by-tier.json")
    @ResponseBody
    List<List<Long>> answersByTier() {
        List<List<Long>> columns = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            columns.add(new ArrayList<>());
        }
        for (long[] row : queries.answersByTier()) {
            for (int i = 0; i < 6; i++) {
                columns.get(i).add(row[i]);
            }
        }
        return columns;
    }

}
