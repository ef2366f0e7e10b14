package io.sluice.console.conversations;

import java.util.UUID;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

@Controller
class ConversationsController {

    private final ConversationQueries conversations;

    ConversationsController(ConversationQueries conversations) {
        this.conversations = conversations;
    }

    @GetMapping("/console/conversations")
    String search(@RequestParam(name = "q", required = false) String query, Model model) {
        model.addAttribute("q", query);
        model.addAttribute("conversations", conversations.search(query, 100));
        return "conversations";
    }

    @GetMapping("/console/conversations/{id}")
    String transcript(@PathVariable UUID id, Model model) {
        model.addAttribute("id", id);
        model.addAttribute("messages", conversations.transcript(id));
        return "transcript";
    }
}
