package io.sluice.console.cache;

import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import jakarta.servlet.http.HttpServletRequest;

import io.sluice.console.audit.AuditLog;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationProperties;
import io.sluice.semantics.evaluation.EvaluationStore;
import io.sluice.semantics.model.StoredModel;
import io.sluice.semantics.pairs.CacheVerification;
import io.sluice.semantics.pairs.HitReviews;
import io.sluice.semantics.pairs.PairStore;
import io.sluice.semantics.pairs.PairVerifier;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Cache verification: the review queue of served semantic-cache hits (operators label them right or
 * wrong; labels become training pairs), the pair-verifier versions with their held-out operating points
 * per level, the precision/recall curve as a chart, train / activate / roll back (admins).
 */
@Controller
public class CacheConsoleController {

    /** One operating point of a version, as the page shows it. */
    public record Point(String level, double target, double threshold, double precision, double recall, int served) {
        public boolean serves() {
            return threshold <= 1;
        }
    }

    /** One stored version with its held-out figures. */
    public record Version(StoredModel model, List<Point> points, long fitPairs, long heldOutPairs) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final CacheVerification verification;
    private final HitReviews reviews;
    private final PairStore pairs;
    private final EvaluationStore evaluations;
    private final AuditLog audit;
    private final ObjectProvider<DegradationControl> degradation;

    CacheConsoleController(CacheVerification verification, HitReviews reviews, PairStore pairs,
            EvaluationStore evaluations, AuditLog audit, ObjectProvider<DegradationControl> degradation) {
        this.verification = verification;
        this.reviews = reviews;
        this.pairs = pairs;
        this.evaluations = evaluations;
        this.audit = audit;
        this.degradation = degradation;
    }

    @GetMapping("/console/cache")
    String page(@RequestParam(name = "version", required = false) Long version, Model model) {
        List<Version> versions = verification.versions(20).stream().map(CacheConsoleController::version).toList();
        long active = verification.active().version();
        Long shown = version != null ? version
            : active != 0 ? Long.valueOf(active) : versions.isEmpty() ? null : versions.get(0).model().version();
        model.addAttribute("reviews", reviews.recent(true, 50));
        model.addAttribute("labelled", reviews.recent(false, 200).stream().filter(i -> i.label() != null).limit(10).toList());
        model.addAttribute("pairs", pairs.summary());
        model.addAttribute("versions", versions);
        model.addAttribute("active", active);
        model.addAttribute("shown", shown);
        model.addAttribute("shownVersion", versions.stream().filter(v -> shown != null && v.model().version() == shown)
            .findFirst().orElse(null));
        model.addAttribute("history", verification.history(10));
        model.addAttribute("evaluation", evaluations.latest("cache-pairs").orElse(null));
        model.addAttribute("targets", verification.properties());
        return "cache";
    }

    /** The held-out precision/recall curve of a version and its chosen points, for the chart. */
    @GetMapping("/console/cache/curve.json")
    @ResponseBody
    Map<String, Object> curve(@RequestParam long version) {
        StoredModel stored = verification.versions(50).stream().filter(v -> v.version() == version).findFirst()
            .orElseThrow(() -> new NoSuchElementException("no such version"));
        JsonNode evaluation = JSON.readTree(stored.evaluation() == null ? "{}" : stored.evaluation());
        List<double[]> curve = new ArrayList<>();
        evaluation.path("curve").forEach(p -> curve.add(new double[] {p.get(0).asDouble(), p.get(1).asDouble(),
            p.get(2).asDouble()}));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("curve", curve);
        out.put("points", version(stored).points());
        return out;
    }

    @PostMapping("/console/cache/reviews/{id}")
    String label(@PathVariable long id, @RequestParam String label, Principal actor, RedirectAttributes redirect) {
        if (!label.equals("right") && !label.equals("wrong")) {
            redirect.addFlashAttribute("error", "Not labelled: the label must be right or wrong.");
            return "redirect:/console/cache";
        }
        try {
            HitReviews.Item item = reviews.label(id, label.equals("right"), actor.getName());
            audit.record(actor.getName(), "semantics.pairs.review", "cache hit review " + id, null, item.label());
            redirect.addFlashAttribute("notice", "Hit " + id + " labelled " + label + "; it is a training pair now.");
        } catch (NoSuchElementException e) {
            redirect.addFlashAttribute("error", "Not labelled: that review item no longer exists.");
        }
        return "redirect:/console/cache";
    }

    @PostMapping("/console/cache/models/train")
    String train(Principal actor, HttpServletRequest http, RedirectAttributes redirect) {
        if (!http.isUserInRole("ADMIN")) {
            redirect.addFlashAttribute("error", "Only an admin may train the pair verifier.");
            return "redirect:/console/cache";
        }
        try {
            StoredModel stored = verification.train(levelCosines(), actor.getName(), null);
            audit.record(actor.getName(), "semantics.pair-verifier.train", PairVerifier.KIND + " v" + stored.version(),
                null, stored.note());
            redirect.addFlashAttribute("notice", "Trained v" + stored.version() + " (" + stored.note()
                + "); it answers once activated.");
            return "redirect:/console/cache?version=" + stored.version();
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", "Not trained: " + e.getMessage());
            return "redirect:/console/cache";
        }
    }

    @PostMapping("/console/cache/models/{version}/activate")
    String activate(@PathVariable long version, @RequestParam(defaultValue = "false") boolean force, Principal actor,
            HttpServletRequest http, RedirectAttributes redirect) {
        if (!http.isUserInRole("ADMIN")) {
            redirect.addFlashAttribute("error", "Only an admin may activate a pair verifier.");
            return "redirect:/console/cache";
        }
        long before = verification.active().version();
        try {
            var action = verification.activate(version, force, actor.getName(), "console");
            audit.record(actor.getName(), "semantics.pair-verifier.activate", PairVerifier.KIND, "v" + before,
                "v" + version + " (" + action + ")");
            redirect.addFlashAttribute("notice", "v" + version + " answers on every instance now.");
        } catch (IllegalStateException | NoSuchElementException e) {
            redirect.addFlashAttribute("error", "Not activated: " + e.getMessage());
        }
        return "redirect:/console/cache?version=" + version;
    }

    @PostMapping("/console/cache/models/rollback")
    String rollback(Principal actor, HttpServletRequest http, RedirectAttributes redirect) {
        if (!http.isUserInRole("ADMIN")) {
            redirect.addFlashAttribute("error", "Only an admin may roll the pair verifier back.");
            return "redirect:/console/cache";
        }
        long before = verification.active().version();
        long now = verification.rollback(actor.getName(), "console").map(StoredModel::version).orElse(0L);
        audit.record(actor.getName(), "semantics.pair-verifier.rollback", PairVerifier.KIND, "v" + before,
            now == 0 ? "built-in default" : "v" + now);
        redirect.addFlashAttribute("notice", now == 0 ? "The built-in default answers again." : "v" + now + " answers again.");
        return "redirect:/console/cache";
    }

    private Map<String, Double> levelCosines() {
        DegradationControl control = degradation.getIfAvailable();
        Map<String, Double> out = new LinkedHashMap<>();
        for (DegradationLevel level : DegradationLevel.values()) {
            out.put(level.name(), control == null ? DegradationProperties.defaults().levels().get(level).cacheThreshold()
                : control.knobs(level).cacheThreshold());
        }
        return out;
    }

    static Version version(StoredModel stored) {
        JsonNode evaluation = JSON.readTree(stored.evaluation() == null ? "{}" : stored.evaluation());
        List<Point> points = new ArrayList<>();
        evaluation.path("points").forEach(p -> points.add(new Point(p.path("level").asString(),
            p.path("target").asDouble(), p.path("threshold").asDouble(), p.path("precision").asDouble(),
            p.path("recall").asDouble(), p.path("served").asInt())));
        return new Version(stored, points, evaluation.path("fitPairs").asLong(), evaluation.path("heldOutPairs").asLong());
    }
}
