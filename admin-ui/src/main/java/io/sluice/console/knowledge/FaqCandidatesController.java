package io.sluice.console.knowledge;

import java.security.Principal;
import java.util.Map;
import java.util.Set;

import io.sluice.batch.faq.FaqCandidateReview;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Knowledge › FAQ candidates: approve (new entry), merge (phrasings of an entry) or reject mined questions. */
@Controller
class FaqCandidatesController {

    static final Set<String> STATUSES = Set.of("PROPOSED", "APPROVED", "MERGED", "REJECTED");

    private final FaqCandidatesConsole candidates;
    private final KnowledgeConsole knowledge;

    FaqCandidatesController(FaqCandidatesConsole candidates, KnowledgeConsole knowledge) {
        this.candidates = candidates;
        this.knowledge = knowledge;
    }

    @GetMapping("/console/knowledge/candidates")
    String page(@RequestParam(defaultValue = "PROPOSED") String status, Model model) {
        String shown = STATUSES.contains(status) ? status : "PROPOSED";
        model.addAttribute("status", shown);
        model.addAttribute("statuses", java.util.List.of("PROPOSED", "APPROVED", "MERGED", "REJECTED"));
        model.addAttribute("candidates", candidates.list(shown));
        model.addAttribute("entryKeys", knowledge.faqEntries().stream().map(e -> e.key()).sorted().toList());
        if (!model.containsAttribute("form")) {
            model.addAttribute("form", Map.of());
        }
        return "knowledge-candidates";
    }

    @PostMapping("/console/knowledge/candidates/{id}/approve")
    String approve(@PathVariable long id, @RequestParam Map<String, String> form, Principal actor, Model model,
            RedirectAttributes redirect) {
        try {
            var c = candidates.approve(actor.getName(), id, form.get("key"), form.get("question"), form.get("answer"),
                form.get("category"));
            redirect.addFlashAttribute("notice", "Candidate " + id + " approved as FAQ entry '" + c.faqKey()
                + "' (served once a snapshot is published).");
        } catch (FaqCandidateReview.ReviewException e) {
            return refused(id, e.getMessage(), form, model);
        }
        return "redirect:/console/knowledge/candidates";
    }

    @PostMapping("/console/knowledge/candidates/{id}/merge")
    String merge(@PathVariable long id, @RequestParam Map<String, String> form, Principal actor, Model model,
            RedirectAttributes redirect) {
        try {
            var c = candidates.merge(actor.getName(), id, form.get("faqKey"));
            redirect.addFlashAttribute("notice", "Candidate " + id + " merged into FAQ entry '" + c.faqKey() + "'.");
        } catch (FaqCandidateReview.ReviewException e) {
            return refused(id, e.getMessage(), form, model);
        }
        return "redirect:/console/knowledge/candidates";
    }

    @PostMapping("/console/knowledge/candidates/{id}/reject")
    String reject(@PathVariable long id, Principal actor, Model model, RedirectAttributes redirect) {
        try {
            candidates.reject(actor.getName(), id);
            redirect.addFlashAttribute("notice", "Candidate " + id + " rejected.");
        } catch (FaqCandidateReview.ReviewException e) {
            return refused(id, e.getMessage(), Map.of(), model);
        }
        return "redirect:/console/knowledge/candidates";
    }

    /** The page again with the message next to the candidate's forms and what was typed kept. */
    private String refused(long id, String message, Map<String, String> form, Model model) {
        model.addAttribute("failedId", id);
        model.addAttribute("fieldMessage", message);
        model.addAttribute("error", "Not changed: " + message);
        model.addAttribute("form", form);
        return page("PROPOSED", model);
    }
}
