package io.sluice.console.knowledge;

import java.io.IOException;
import java.security.Principal;
import java.util.Map;

import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.knowledge.ingest.IngestException;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Knowledge pages: documents, FAQ entries, snapshots, hit testing. */
@Controller
class KnowledgePagesController {

    private final KnowledgeConsole knowledge;

    KnowledgePagesController(KnowledgeConsole knowledge) {
        this.knowledge = knowledge;
    }

    @GetMapping("/console/knowledge")
    String root() {
        return "redirect:/console/knowledge/documents";
    }

    @GetMapping("/console/knowledge/documents")
    String documents(Model model) {
        model.addAttribute("documents", knowledge.documents());
        uploads(model);
        return "knowledge-documents";
    }

    /** The live part: uploads and their ingest progress (htmx polls it while any is running). */
    @GetMapping("/console/knowledge/documents/uploads")
    String uploads(Model model) {
        var uploads = knowledge.uploads();
        model.addAttribute("uploads", uploads);
        model.addAttribute("uploadsRunning", uploads.stream().anyMatch(u -> !u.finished()));
        return "knowledge-documents :: uploads";
    }

    @PostMapping("/console/knowledge/documents")
    String upload(@RequestParam("file") MultipartFile file, @RequestParam(required = false) String externalId,
            @RequestParam(required = false) String title, @RequestParam(required = false) String category,
            Principal actor, Model model, RedirectAttributes redirect) throws IOException {
        try {
            String id = knowledge.upload(actor.getName(), file.getOriginalFilename(), file.getContentType(),
                file.getBytes(), externalId, title, category);
            redirect.addFlashAttribute("notice", "Uploaded; ingesting '" + id + "' — progress below.");
        } catch (IllegalArgumentException e) {
            model.addAttribute("error", e.getMessage());
            return documents(model);
        }
        return "redirect:/console/knowledge/documents";
    }

    @PostMapping("/console/knowledge/documents/delete")
    String deleteDocument(@RequestParam String externalId, Principal actor, RedirectAttributes redirect) {
        boolean deleted = knowledge.deleteDocument(actor.getName(), externalId);
        redirect.addFlashAttribute(deleted ? "notice" : "error",
            deleted ? "Document '" + externalId + "' deleted from every tier." : "No document '" + externalId + "'.");
        return "redirect:/console/knowledge/documents";
    }

    static final int FAQ_PAGE_SIZE = 25;

    @GetMapping("/console/knowledge/faq")
    String faq(@RequestParam(required = false) String edit, @RequestParam(name = "q", required = false) String query,
            @RequestParam(required = false) String category, @RequestParam(defaultValue = "0") int page, Model model) {
        model.addAttribute("q", query);
        model.addAttribute("category", category);
        model.addAttribute("categories", knowledge.faqCategories());
        model.addAttribute("faqPage", knowledge.faqPage(query, category, page, FAQ_PAGE_SIZE));
        if (!model.containsAttribute("form")) {
            model.addAttribute("form", edit == null ? Map.of() : knowledge.faqEntry(edit).map(e -> Map.of(
                "key", e.key(), "question", e.question(), "phrasings", String.join("\n", e.phrasings()),
                "answer", e.answer(), "category", e.category() == null ? "" : e.category(),
                "validFrom", e.validFrom() == null ? "" : e.validFrom().toString().substring(0, 10),
                "validUntil", e.validUntil() == null ? "" : e.validUntil().toString().substring(0, 10)))
                .orElse(Map.of()));
        }
        model.addAttribute("editing", edit != null);
        return "knowledge-faq";
    }

    @PostMapping("/console/knowledge/faq")
    String saveFaq(@RequestParam Map<String, String> form, Principal actor, Model model, RedirectAttributes redirect) {
        try {
            var saved = knowledge.saveFaq(actor.getName(), form);
            redirect.addFlashAttribute("notice", "FAQ entry '" + saved.key() + "' saved and published.");
            // show the saved entry, wherever it falls in the pages
            redirect.addAttribute("q", saved.key());
        } catch (IllegalArgumentException | IngestException e) {
            model.addAttribute("error", "Not saved: " + e.getMessage());
            model.addAttribute("form", form);
            return faq(null, null, null, 0, model);
        }
        return "redirect:/console/knowledge/faq";
    }

    @PostMapping("/console/knowledge/faq/delete")
    String deleteFaq(@RequestParam String key, Principal actor, RedirectAttributes redirect) {
        boolean deleted = knowledge.deleteFaq(actor.getName(), key);
        redirect.addFlashAttribute(deleted ? "notice" : "error",
            deleted ? "FAQ entry '" + key + "' deleted." : "No FAQ entry '" + key + "'.");
        return "redirect:/console/knowledge/faq";
    }

    @GetMapping("/console/knowledge/snapshots")
    String snapshots(Model model) {
        model.addAttribute("current", knowledge.currentSnapshot());
        model.addAttribute("history", knowledge.snapshotHistory());
        return "knowledge-snapshots";
    }

    @PostMapping("/console/knowledge/snapshots/publish")
    String publish(Principal actor, RedirectAttributes redirect) {
        try {
            var s = knowledge.publishFromDatabase(actor.getName());
            redirect.addFlashAttribute("notice", "Snapshot v" + s.version() + " built, validated and published.");
        } catch (RuntimeException e) {
            redirect.addFlashAttribute("error", "Not published (the current snapshot stays): " + e.getMessage());
        }
        return "redirect:/console/knowledge/snapshots";
    }

    @PostMapping("/console/knowledge/snapshots/rollback")
    String rollBack(@RequestParam long version, Principal actor, RedirectAttributes redirect) {
        try {
            knowledge.rollBack(actor.getName(), version);
            redirect.addFlashAttribute("notice", "Snapshot v" + version + " is published again.");
        } catch (RuntimeException e) {
            redirect.addFlashAttribute("error", "Not rolled back (the current snapshot stays): " + e.getMessage());
        }
        return "redirect:/console/knowledge/snapshots";
    }
}
