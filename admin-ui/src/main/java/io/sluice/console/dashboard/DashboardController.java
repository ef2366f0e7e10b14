package io.sluice.console.dashboard;

import java.util.ArrayList;
import java.util.List;

import io.sluice.knowledge.sample.KnowledgeBootstrap;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;

@Controller
class DashboardController {

    private final DashboardQueries queries;
    private final DashboardMetrics metrics;
    private final KnowledgeBootstrap bootstrap;

    DashboardController(DashboardQueries queries, DashboardMetrics metrics, KnowledgeBootstrap bootstrap) {
        this.queries = queries;
        this.metrics = metrics;
        this.bootstrap = bootstrap;
    }

    @GetMapping("/console")
    String dashboard(Model model) {
        stats(model);
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
        return "dashboard :: stats";
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
