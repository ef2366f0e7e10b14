package io.sluice.console.intents;

import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.sluice.api.intent.IntentModelService;
import io.sluice.semantics.evaluation.EvaluationStore;
import io.sluice.semantics.intent.IntentDefinition;
import io.sluice.semantics.intent.IntentTaxonomy;
import io.sluice.semantics.intent.TaxonomyChange;
import io.sluice.semantics.intent.TaxonomyImport;
import io.sluice.semantics.model.StoredModel;
import io.sluice.web.audit.AuditTrail;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import tools.jackson.databind.ObjectMapper;

/**
 * Intents in the console: the operator's taxonomy (list, edit, import), trained models (train, the
 * held-out evaluation as a confusion matrix with per-class precision/recall and the S→B rate,
 * activate, roll back) and the latest {@code intent} evaluation. Changes are audited.
 */
@Controller
class IntentsConsoleController {

    private final IntentTaxonomy taxonomy;
    private final IntentModelService models;
    private final EvaluationStore evaluations;
    private final AuditTrail audit;
    private final ObjectMapper json = new ObjectMapper();

    IntentsConsoleController(IntentTaxonomy taxonomy, IntentModelService models, EvaluationStore evaluations,
            AuditTrail audit) {
        this.taxonomy = taxonomy;
        this.models = models;
        this.evaluations = evaluations;
        this.audit = audit;
    }

    @GetMapping("/console/intents")
    String page(@RequestParam(required = false) Long version, @RequestParam(required = false) String edit,
            @RequestParam(required = false) UUID training, @RequestParam(required = false) String q,
            @RequestParam(name = "class", required = false) String cls, @RequestParam(defaultValue = "0") int page,
            Model model) {
        // a taxonomy of many fine intents (77 and more) is filtered and paged, its examples only counted
        List<IntentDefinition> all = taxonomy.definitions();
        Map<String, Integer> counts = taxonomy.exampleCounts();
        String needle = q == null ? "" : q.strip().toLowerCase(java.util.Locale.ROOT);
        String wanted = cls == null ? "" : cls.strip().toUpperCase(java.util.Locale.ROOT);
        List<IntentDefinition> matching = all.stream()
            .filter(i -> needle.isEmpty() || i.key().contains(needle)
                || i.description().toLowerCase(java.util.Locale.ROOT).contains(needle))
            .filter(i -> wanted.isEmpty() || i.priority().equals(wanted)).toList();
        int pages = Math.max(1, (matching.size() + INTENTS_PER_PAGE - 1) / INTENTS_PER_PAGE);
        int current = Math.max(0, Math.min(page, pages - 1));
        model.addAttribute("intents", matching.subList(current * INTENTS_PER_PAGE,
            Math.min(matching.size(), (current + 1) * INTENTS_PER_PAGE)));
        model.addAttribute("exampleCounts", counts);
        model.addAttribute("intentTotal", all.size());
        model.addAttribute("intentMatching", matching.size());
        model.addAttribute("intentPage", current);
        model.addAttribute("intentPages", pages);
        model.addAttribute("q", q == null ? "" : q);
        model.addAttribute("cls", wanted);
        Map<String, Long> byClass = new java.util.LinkedHashMap<>();
        for (String c : List.of("S", "A", "B")) {
            byClass.put(c, all.stream().filter(i -> i.priority().equals(c)).count());
        }
        model.addAttribute("classCounts", byClass);
        model.addAttribute("exampleTotal", counts.values().stream().mapToInt(Integer::intValue).sum());
        List<StoredModel> versions = models.versions(50);
        model.addAttribute("versions", versions);
        Optional<StoredModel> shown = version != null ? models.find(version)
            : versions.stream().filter(StoredModel::current).findFirst().or(() -> versions.stream().findFirst());
        shown.ifPresent(m -> {
            Map<?, ?> evaluation = m.evaluation() == null ? Map.of() : json.readValue(m.evaluation(), Map.class);
            model.addAttribute("shown", m);
            model.addAttribute("evaluation", evaluation);
            model.addAttribute("confusion", ConfusionRow.of(evaluation));
        });
        evaluations.latest("intent").ifPresent(r -> {
            model.addAttribute("latestEvaluation", r);
            model.addAttribute("latestDetails", json.readValue(r.details(), Map.class));
        });
        // the training asked about, else the one running anywhere in the cluster (or the last one)
        (training != null ? models.training(training) : models.currentTraining())
            .ifPresent(t -> model.addAttribute("training", t));
        IntentDefinition editing = edit == null ? null : taxonomy.find(edit).orElse(null);
        model.addAttribute("editing", editing);
        model.addAttribute("editingExamples", editing == null ? "" : String.join("\n", editing.examples()));
        return "intents";
    }

    static final int INTENTS_PER_PAGE = 25;

    /** One row of the priority confusion matrix with the class's precision and recall, ready for the page. */
    record ConfusionRow(String expected, List<Object> decided, Object precision, Object recall) {
        static List<ConfusionRow> of(Map<?, ?> evaluation) {
            if (!(evaluation.get("classes") instanceof List<?> classes) || !(evaluation.get("confusion") instanceof List<?> rows)
                    || !(evaluation.get("perPriority") instanceof Map<?, ?> per)) {
                return List.of();
            }
            List<ConfusionRow> out = new java.util.ArrayList<>();
            for (int i = 0; i < classes.size() && i < rows.size(); i++) {
                String c = String.valueOf(classes.get(i));
                Map<?, ?> pr = per.get(c) instanceof Map<?, ?> m ? m : Map.of();
                out.add(new ConfusionRow(c, List.copyOf((List<?>) rows.get(i)), pr.get("precision"), pr.get("recall")));
            }
            return out;
        }
    }

    @PostMapping("/console/intents/save")
    String save(@RequestParam String key, @RequestParam String priority, @RequestParam(required = false) String description,
            @RequestParam(required = false) String examples, Principal actor, RedirectAttributes redirect) {
        try {
            String k = key.strip().toLowerCase(java.util.Locale.ROOT);
            List<String> lines = Arrays.stream((examples == null ? "" : examples).split("\r?\n")).map(String::strip)
                .filter(l -> !l.isEmpty()).distinct().toList();
            if (lines.stream().anyMatch(l -> l.length() > TaxonomyImport.MAX_TEXT)) {
                throw new IllegalArgumentException("an example must be at most " + TaxonomyImport.MAX_TEXT + " characters");
            }
            IntentDefinition intent = new IntentDefinition(k, priority, description, lines, actor.getName(), null);
            var before = taxonomy.find(k);
            taxonomy.apply(new TaxonomyChange(List.of(intent), List.of(), true), actor.getName());
            audit.console(actor.getName(), "intent.save", "intent " + k,
                before.map(b -> "priority=" + b.priority() + "; examples=" + b.examples().size()).orElse(null),
                "priority=" + intent.priority() + "; examples=" + lines.size());
            redirect.addFlashAttribute("notice", "Intent " + k + " saved (" + lines.size() + " examples).");
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", "Not saved: " + e.getMessage());
        }
        return "redirect:/console/intents";
    }

    @PostMapping("/console/intents/{key}/delete")
    String delete(@PathVariable String key, Principal actor, RedirectAttributes redirect) {
        if (taxonomy.delete(key)) {
            audit.console(actor.getName(), "intent.delete", "intent " + key, null, "deleted");
            redirect.addFlashAttribute("notice", "Intent " + key + " deleted.");
        } else {
            redirect.addFlashAttribute("error", "No such intent.");
        }
        return "redirect:/console/intents";
    }

    @PostMapping("/console/intents/import")
    String importFile(@RequestParam("file") MultipartFile file, Principal actor, RedirectAttributes redirect) {
        try {
            Map<String, String> existing = new LinkedHashMap<>();
            taxonomy.definitions().forEach(i -> existing.put(i.key(), i.priority()));
            TaxonomyChange change = TaxonomyImport.read(new InputStreamReader(file.getInputStream(), StandardCharsets.UTF_8),
                TaxonomyImport.Format.of(file.getContentType(), file.getOriginalFilename()), existing, actor.getName());
            TaxonomyChange.Applied applied = taxonomy.apply(change, actor.getName());
            String summary = applied.intentsCreated() + " intents created, " + applied.intentsUpdated() + " updated, "
                + applied.examplesGiven() + " examples";
            audit.console(actor.getName(), "intent.import", "intent taxonomy", null, summary);
            redirect.addFlashAttribute("notice", "Imported: " + summary + ".");
        } catch (IllegalArgumentException | IOException e) {
            redirect.addFlashAttribute("error", "Nothing imported: " + e.getMessage());
        }
        return "redirect:/console/intents";
    }

    @PostMapping("/console/intents/train")
    String train(@RequestParam(defaultValue = "false") boolean activate, Principal actor, RedirectAttributes redirect) {
        var started = models.start(new IntentModelService.Request(activate, false, "trained in the console"), actor.getName());
        if (started.isEmpty()) {
            redirect.addFlashAttribute("error", "A model is already being trained (on this or another instance).");
            return "redirect:/console/intents";
        }
        audit.console(actor.getName(), "intent.model.train", "intent model", null, "training " + started.get().id());
        redirect.addFlashAttribute("notice", "Training started; reload to see the new version.");
        return "redirect:/console/intents?training=" + started.get().id();
    }

    @PostMapping("/console/intents/models/{version}/activate")
    String activate(@PathVariable long version, @RequestParam(defaultValue = "false") boolean force, Principal actor,
            RedirectAttributes redirect) {
        try {
            models.activate(version, force, actor.getName());
            audit.console(actor.getName(), force ? "intent.model.force" : "intent.model.activate", "intent model v" + version,
                null, "active");
            redirect.addFlashAttribute("notice", "Intent model v" + version + " is active on every instance.");
        } catch (IllegalArgumentException | IllegalStateException e) {
            redirect.addFlashAttribute("error", "Not activated: " + e.getMessage());
        }
        return "redirect:/console/intents?version=" + version;
    }

    @PostMapping("/console/intents/models/rollback")
    String rollback(Principal actor, RedirectAttributes redirect) {
        var back = models.rollback(actor.getName(), "rollback in the console");
        String now = back.map(m -> "v" + m.version()).orElse("no model (the rules decide)");
        audit.console(actor.getName(), "intent.model.rollback", "intent model", null, now);
        redirect.addFlashAttribute("notice", "Rolled back: " + now + " answers now.");
        return "redirect:/console/intents";
    }
}
