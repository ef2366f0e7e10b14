package io.sluice.console.conversations;

import java.security.Principal;
import java.time.LocalDate;
import java.util.UUID;

import io.sluice.console.knowledge.KnowledgeConsole;
import io.sluice.knowledge.ingest.IngestException;

import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

@Controller
class ConversationsController {

    static final int PAGE_SIZE = 50;

    private final ConversationQueries conversations;
    private final KnowledgeConsole knowledge;

    ConversationsController(ConversationQueries conversations, KnowledgeConsole knowledge) {
        this.conversations = conversations;
        this.knowledge = knowledge;
    }

    @GetMapping("/console/conversations")
    String search(@RequestParam(name = "q", required = false) String query,
            @RequestParam(required = false) String tier, @RequestParam(required = false) String intent,
            @RequestParam(required = false) String feedback, @RequestParam(required = false) String client,
            @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE) LocalDate from,
            @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE) LocalDate to,
            @RequestParam(defaultValue = "0") int page, Model model) {
        model.addAttribute("q", query);
        model.addAttribute("tier", tier);
        model.addAttribute("intent", intent);
        model.addAttribute("feedback", feedback);
        model.addAttribute("client", client);
        model.addAttribute("from", from);
        model.addAttribute("to", to);
        model.addAttribute("intents", conversations.intents());
        model.addAttribute("clients", conversations.clients());
        try {
            ConversationQueries.Filter filter = new ConversationQueries.Filter(query, tier, intent, feedback, client, from, to);
            model.addAttribute("result", conversations.search(filter, Math.max(0, page), PAGE_SIZE));
        } catch (IllegalArgumentException e) {
            model.addAttribute("error", "Filter not applied: " + e.getMessage());
            model.addAttribute("result", new ConversationQueries.Page(java.util.List.of(), 0, PAGE_SIZE, false));
        }
        return "conversations";
    }

    @GetMapping("/console/conversations/{id}")
    String transcript(@PathVariable UUID id, Model model) {
        model.addAttribute("id", id);
        model.addAttribute("messages", conversations.transcript(id));
        return "transcript";
    }

    /** Annotation reply: the corrected answer kept as a new FAQ entry or as a variant of one (operators). */
    @PostMapping("/console/conversations/{id}/annotate")
    String annotate(@PathVariable UUID id, @RequestParam String question, @RequestParam(required = false) String answer,
            @RequestParam String mode, @RequestParam(required = false) String key,
            @RequestParam(defaultValue = "false") boolean replaceAnswer, Principal actor, RedirectAttributes redirect) {
        try {
            var saved = knowledge.annotate(actor.getName(), id.toString(), question, answer, key, "variant".equals(mode),
                replaceAnswer);
            redirect.addFlashAttribute("notice", ("variant".equals(mode) ? "Question added to FAQ entry '" : "FAQ entry '")
                + saved.key() + ("variant".equals(mode) ? "'" : "' created") + " and published.");
        } catch (IllegalArgumentException | IngestException e) {
            redirect.addFlashAttribute("error", "Not saved: " + e.getMessage());
        }
        return "redirect:/console/conversations/" + id;
    }
}
