package io.sluice.console.jobs;

import java.security.Principal;

import io.sluice.batch.jobs.JobControlException;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Jobs (launch, stop, restart, progress) and the work queue (items by state, dead-letter retry/discard). */
@Controller
class JobsController {

    private final JobsConsole jobs;

    JobsController(JobsConsole jobs) {
        this.jobs = jobs;
    }

    @GetMapping("/console/jobs")
    String jobs(Model model) {
        model.addAttribute("jobs", jobs.jobs());
        return "jobs";
    }

    /** One execution's progress; htmx polls it every second while the run is live. */
    @GetMapping("/console/jobs/executions/{id}/progress")
    String progress(@PathVariable long id, Model model) {
        model.addAttribute("p", jobs.progress(id));
        return "jobs :: progress";
    }

    /** One run's row; htmx refreshes a live run's whole row (status, progress, actions) until it ends. */
    @GetMapping("/console/jobs/executions/{id}/row")
    String row(@PathVariable long id, Model model) {
        model.addAttribute("r", jobs.run(id).orElse(null));
        return "jobs :: run-row";
    }

    @PostMapping("/console/jobs/{job}/launch")
    String launch(@PathVariable String job, @RequestParam(required = false) String parameters, Principal actor,
            Model model, RedirectAttributes redirect) {
        try {
            long id = jobs.launch(actor.getName(), job, parameters);
            redirect.addFlashAttribute("notice", job + " launched as execution " + id + ".");
        } catch (IllegalArgumentException | JobControlException e) {
            model.addAttribute("error", "Not launched: " + e.getMessage());
            model.addAttribute("failedJob", job);
            model.addAttribute("parameters", parameters);
            return jobs(model);
        }
        return "redirect:/console/jobs";
    }

    @PostMapping("/console/jobs/executions/{id}/stop")
    String stop(@PathVariable long id, Principal actor, RedirectAttributes redirect) {
        try {
            jobs.stop(actor.getName(), id);
            redirect.addFlashAttribute("notice", "Execution " + id + " stops at its next chunk commit.");
        } catch (JobControlException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/console/jobs";
    }

    @PostMapping("/console/jobs/executions/{id}/restart")
    String restart(@PathVariable long id, Principal actor, RedirectAttributes redirect) {
        try {
            long next = jobs.restart(actor.getName(), id);
            redirect.addFlashAttribute("notice", "Execution " + id + " restarted as " + next + ".");
        } catch (JobControlException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/console/jobs";
    }

    @GetMapping("/console/queue")
    String queue(@RequestParam(required = false) String state, @RequestParam(required = false) String queue,
            Model model) {
        String s = state == null || state.isBlank() ? "DEAD" : state;
        model.addAttribute("depths", jobs.depths());
        model.addAttribute("state", s);
        model.addAttribute("queue", queue);
        try {
            model.addAttribute("items", jobs.items(s, queue, 200));
        } catch (IllegalArgumentException e) {
            model.addAttribute("error", e.getMessage());
            model.addAttribute("items", java.util.List.of());
        }
        return "queue";
    }

    @PostMapping("/console/queue/items/{id}/retry")
    String retry(@PathVariable long id, Principal actor, RedirectAttributes redirect) {
        try {
            jobs.retry(actor.getName(), id);
            redirect.addFlashAttribute("notice", "Work item " + id + " is queued again with fresh attempts.");
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/console/queue";
    }

    @PostMapping("/console/queue/items/{id}/discard")
    String discard(@PathVariable long id, Principal actor, RedirectAttributes redirect) {
        try {
            jobs.discard(actor.getName(), id);
            redirect.addFlashAttribute("notice", "Work item " + id + " discarded.");
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/console/queue";
    }
}
