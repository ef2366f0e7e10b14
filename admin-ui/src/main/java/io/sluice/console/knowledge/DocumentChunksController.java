package io.sluice.console.knowledge;

import java.security.Principal;

import io.sluice.console.audit.AuditLog;
import io.sluice.knowledge.chain.Source;
import io.sluice.knowledge.ingest.ChunkEditor;
import io.sluice.knowledge.ingest.IngestException;
import io.sluice.knowledge.store.KnowledgeRepository;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * One document's chunks as they were indexed, and what an operator does to one of them: correct its text
 * (re-embedded and re-indexed at once) or disable / enable it. Every change is audited with the chunk's
 * text before and after. The document id travels as a parameter (ids hold ':' and '/').
 */
@Controller
class DocumentChunksController {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(DocumentChunksController.class);

    private final ChunkEditor editor;
    private final KnowledgeRepository documents;
    private final AuditLog audit;

    DocumentChunksController(ChunkEditor editor, KnowledgeRepository documents, AuditLog audit) {
        this.editor = editor;
        this.documents = documents;
        this.audit = audit;
    }

    @GetMapping("/console/knowledge/documents/chunks")
    String chunks(@RequestParam String id, Model model) {
        var document = documents.find(id).filter(d -> Source.faqKeyOf(d.externalId()) == null)
            .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no such document"));
        var chunks = editor.chunks(id);
        model.addAttribute("document", document);
        model.addAttribute("chunks", chunks);
        model.addAttribute("disabledCount", chunks.stream().filter(KnowledgeRepository.ChunkRow::disabled).count());
        return "knowledge-chunks";
    }

    @PostMapping("/console/knowledge/documents/chunks/edit")
    String edit(@RequestParam String id, @RequestParam int ordinal, @RequestParam String text, Principal actor,
            RedirectAttributes redirect) {
        String before = current(id, ordinal);
        return act(id, ordinal, redirect, () -> {
            editor.edit(id, ordinal, text);
            audit.record(actor.getName(), "knowledge.chunk.edit", target(id, ordinal), abbreviate(before),
                abbreviate(text.strip()));
            return "Chunk " + ordinal + " saved, embedded again and re-indexed.";
        });
    }

    @PostMapping("/console/knowledge/documents/chunks/disable")
    String disable(@RequestParam String id, @RequestParam int ordinal, Principal actor, RedirectAttributes redirect) {
        return act(id, ordinal, redirect, () -> {
            editor.disable(id, ordinal);
            audit.record(actor.getName(), "knowledge.chunk.disable", target(id, ordinal), "enabled", "disabled");
            return "Chunk " + ordinal + " disabled: no tier retrieves it now.";
        });
    }

    @PostMapping("/console/knowledge/documents/chunks/enable")
    String enable(@RequestParam String id, @RequestParam int ordinal, Principal actor, RedirectAttributes redirect) {
        return act(id, ordinal, redirect, () -> {
            editor.enable(id, ordinal);
            audit.record(actor.getName(), "knowledge.chunk.enable", target(id, ordinal), "disabled", "enabled");
            return "Chunk " + ordinal + " enabled and indexed again.";
        });
    }

    private String act(String id, int ordinal, RedirectAttributes redirect, java.util.function.Supplier<String> change) {
        try {
            redirect.addFlashAttribute("notice", change.get());
        } catch (IngestException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        } catch (RuntimeException e) {
            // embedding or index write failed: the transaction rolled back, every tier is as it was
            log.warn("chunk {} of {}: change failed: {}", ordinal, id, e.toString());
            redirect.addFlashAttribute("error", "The change failed (" + e.getClass().getSimpleName()
                + "); nothing was changed. Try again, or see the log.");
        }
        return "redirect:" + UriComponentsBuilder.fromPath("/console/knowledge/documents/chunks")
            .queryParam("id", id).fragment("chunk-" + ordinal).encode().build().toUriString();
    }

    private String current(String id, int ordinal) {
        return editor.chunks(id).stream().filter(c -> c.ordinal() == ordinal).map(KnowledgeRepository.ChunkRow::content)
            .findFirst().orElse(null);
    }

    private static String target(String id, int ordinal) {
        return id + "#" + ordinal;
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 300 ? text : text.substring(0, 300) + "…";
    }
}
