package io.sluice.api.intent;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.servlet.http.HttpServletRequest;

import io.sluice.problem.ProblemExceptionHandler;
import io.sluice.problem.ProblemTypes;
import io.sluice.semantics.evaluation.EvaluationReport;
import io.sluice.semantics.evaluation.EvaluationStore;
import io.sluice.semantics.files.CsvTable;
import io.sluice.semantics.intent.IntentDefinition;
import io.sluice.semantics.intent.IntentTaxonomy;
import io.sluice.semantics.intent.IntentTrainings;
import io.sluice.semantics.intent.TaxonomyChange;
import io.sluice.semantics.intent.TaxonomyImport;
import io.sluice.semantics.intent.TaxonomyImportException;
import io.sluice.semantics.model.StoredModel;
import io.sluice.web.audit.AuditTrail;
import io.sluice.web.caller.ApiCaller;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The operator's intent taxonomy and trained intent models ({@code /api/v1/intents}, docs/semantics.md):
 * reads need {@code knowledge:read}, changes {@code admin}; every change is audited.
 */
@RestController
@RequestMapping("/api/v1/intents")
public class IntentController {

    static final URI INVALID_IMPORT = URI.create("https://sluice.dev/problems/invalid-intent-import");
    static final URI MODEL_WORSE = URI.create("https://sluice.dev/problems/intent-model-worse");
    static final URI TRAINING_RUNNING = URI.create("https://sluice.dev/problems/intent-training-running");
    /** Like document uploads ({@code sluice.ingress.max-upload-bytes}, multipart max-file-size): 8 MB. */
    static final int MAX_FILE = 8 * 1024 * 1024;

    private final IntentTaxonomy taxonomy;
    private final IntentModelService models;
    private final IntentEvaluator evaluator;
    private final EvaluationStore evaluations;
    private final ObjectMapper json = new ObjectMapper();

    public IntentController(IntentTaxonomy taxonomy, IntentModelService models, IntentEvaluator evaluator,
            EvaluationStore evaluations) {
        this.taxonomy = taxonomy;
        this.models = models;
        this.evaluator = evaluator;
        this.evaluations = evaluations;
    }

    /** An intent without its examples (the list), or with them. */
    public record IntentView(String key, String priority, String description, int exampleCount, List<String> examples,
            String owner, java.time.Instant updatedAt) {
        static IntentView of(IntentDefinition d, boolean examples) {
            return new IntentView(d.key(), d.priority(), d.description(), d.examples().size(),
                examples ? d.examples() : null, d.owner(), d.updatedAt());
        }
    }

    public record IntentBody(String priority, String description, List<String> examples) {
    }

    public record TrainBody(Boolean activate, Boolean force, String note) {
    }

    @GetMapping
    List<IntentView> list(@RequestParam(defaultValue = "false") boolean examples) {
        return taxonomy.all().stream().map(d -> IntentView.of(d, examples)).toList();
    }

    @GetMapping("/{key}")
    IntentView one(@PathVariable String key) {
        return taxonomy.find(key).map(d -> IntentView.of(d, true)).orElseThrow(() -> new NotFound("no such intent"));
    }

    @PutMapping(path = "/{key}", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<IntentView> save(@PathVariable String key, @RequestBody IntentBody body, HttpServletRequest http) {
        List<String> examples = body.examples() == null ? List.of() : body.examples().stream()
            .map(t -> t == null ? "" : t.strip()).toList();
        if (examples.stream().anyMatch(t -> t.isEmpty() || t.length() > TaxonomyImport.MAX_TEXT)) {
            throw new IllegalArgumentException("an example must be 1-" + TaxonomyImport.MAX_TEXT + " characters");
        }
        IntentDefinition intent = new IntentDefinition(key, body.priority(), body.description(),
            examples.stream().distinct().toList(), actor(http), null);
        var before = taxonomy.find(key);
        taxonomy.apply(new TaxonomyChange(List.of(intent), List.of(), true), actor(http));
        AuditTrail.note(http, "intent.save", "intent " + key, before.map(IntentController::describe).orElse(null),
            describe(intent));
        IntentView saved = IntentView.of(taxonomy.find(key).orElseThrow(), true);
        return ResponseEntity.status(before.isPresent() ? HttpStatus.OK : HttpStatus.CREATED).body(saved);
    }

    @DeleteMapping("/{key}")
    ResponseEntity<Void> delete(@PathVariable String key, HttpServletRequest http) {
        var before = taxonomy.find(key);
        if (!taxonomy.delete(key)) {
            throw new NotFound("no such intent");
        }
        AuditTrail.note(http, "intent.delete", "intent " + key, before.map(IntentController::describe).orElse(null),
            "deleted");
        return ResponseEntity.noContent().build();
    }

    /** Bulk import, CSV or JSONL, as a multipart {@code file} or the raw body; atomic. */
    @PostMapping(path = "/import", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    Map<String, Object> importFile(@RequestParam("file") MultipartFile file, HttpServletRequest http) throws IOException {
        if (file.getSize() > MAX_FILE) {
            throw new TaxonomyImportException(0, "the file is larger than " + MAX_FILE / (1024 * 1024) + " MB");
        }
        return importFrom(new InputStreamReader(file.getInputStream(), StandardCharsets.UTF_8),
            TaxonomyImport.Format.of(file.getContentType(), file.getOriginalFilename()), http);
    }

    @PostMapping(path = "/import", consumes = {"text/csv", "text/plain", "application/x-ndjson", "application/jsonl",
        "application/json"})
    Map<String, Object> importBody(@RequestBody String body, HttpServletRequest http) throws IOException {
        return importFrom(new StringReader(body), TaxonomyImport.Format.of(http.getContentType(), null), http);
    }

    private Map<String, Object> importFrom(Reader reader, TaxonomyImport.Format format, HttpServletRequest http)
            throws IOException {
        Map<String, String> existing = new LinkedHashMap<>();
        taxonomy.definitions().forEach(i -> existing.put(i.key(), i.priority()));
        TaxonomyChange change = TaxonomyImport.read(reader, format, existing, actor(http));
        TaxonomyChange.Applied applied = taxonomy.apply(change, actor(http));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("format", format.name().toLowerCase(java.util.Locale.ROOT));
        out.put("intentsCreated", applied.intentsCreated());
        out.put("intentsUpdated", applied.intentsUpdated());
        out.put("examples", applied.examplesGiven());
        AuditTrail.note(http, "intent.import", "intent taxonomy", null, out.toString());
        return out;
    }

    @PostMapping("/models")
    ResponseEntity<?> train(@RequestBody(required = false) TrainBody body, HttpServletRequest http) {
        TrainBody b = body == null ? new TrainBody(true, false, null) : body;
        var started = models.start(new IntentModelService.Request(b.activate() == null || b.activate(),
            Boolean.TRUE.equals(b.force()), b.note()), actor(http));
        if (started.isEmpty()) {
            String where = models.currentTraining().filter(t -> "running".equals(t.status()))
                .map(t -> " (training " + t.id() + ", " + t.phase() + ", started " + t.startedAt() + ")").orElse("");
            return problem(HttpStatus.CONFLICT, TRAINING_RUNNING, "Training running",
                "an intent model is being trained in the cluster" + where + "; wait for it to finish");
        }
        AuditTrail.note(http, "intent.model.train", "intent model", null, "training " + started.get().id());
        URI status = URI.create("/api/v1/intents/models/trainings/" + started.get().id());
        return ResponseEntity.accepted().location(status).body(started.get());
    }

    @GetMapping("/models/trainings/{id}")
    IntentTrainings.Training training(@PathVariable UUID id) {
        return models.training(id).orElseThrow(() -> new NotFound("no such training"));
    }

    /** The running training anywhere in the cluster (or the newest) and the recent ones. */
    @GetMapping("/models/trainings")
    Map<String, Object> trainings(@RequestParam(defaultValue = "10") int limit) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("current", models.currentTraining().orElse(null));
        out.put("recent", models.recentTrainings(limit));
        return out;
    }

    @GetMapping("/models")
    List<Map<String, Object>> versions(@RequestParam(defaultValue = "20") int limit) {
        return models.versions(Math.max(1, Math.min(limit, 200))).stream().map(this::view).toList();
    }

    @GetMapping("/models/{version}")
    Map<String, Object> version(@PathVariable long version) {
        return models.find(version).map(this::view).orElseThrow(() -> new NotFound("no such intent model"));
    }

    @PostMapping("/models/{version}/activate")
    ResponseEntity<?> activate(@PathVariable long version, @RequestParam(defaultValue = "false") boolean force,
            HttpServletRequest http) {
        if (models.find(version).isEmpty()) {
            throw new NotFound("no such intent model");
        }
        try {
            StoredModel model = models.activate(version, force, actor(http));
            AuditTrail.note(http, force ? "intent.model.force" : "intent.model.activate", "intent model v" + version,
                null, "active");
            return ResponseEntity.ok(view(model));
        } catch (IllegalStateException e) {
            return problem(HttpStatus.CONFLICT, MODEL_WORSE, "Model not activated", e.getMessage());
        }
    }

    @PostMapping("/models/rollback")
    Map<String, Object> rollback(HttpServletRequest http) {
        var back = models.rollback(actor(http), "rollback through the API");
        AuditTrail.note(http, "intent.model.rollback", "intent model", null,
            back.map(m -> "v" + m.version()).orElse("no model (rules)"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("active", back.map(this::view).orElse(null));
        return out;
    }

    /** Evaluates a labelled file (CSV or JSONL: text, intent and/or priority) through the chat's decision; stored. */
    @PostMapping(path = "/evaluations", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    ResponseEntity<EvaluationReport> evaluateFile(@RequestParam("file") MultipartFile file, HttpServletRequest http)
            throws IOException {
        if (file.getSize() > MAX_FILE) {
            throw new TaxonomyImportException(0, "the file is larger than " + MAX_FILE / (1024 * 1024) + " MB");
        }
        String text = new String(file.getBytes(), StandardCharsets.UTF_8);
        return evaluate(text, TaxonomyImport.Format.of(file.getContentType(), file.getOriginalFilename()),
            file.getOriginalFilename(), http);
    }

    @PostMapping(path = "/evaluations", consumes = {"text/csv", "text/plain", "application/x-ndjson", "application/jsonl",
        "application/json"})
    ResponseEntity<EvaluationReport> evaluateBody(@RequestBody String body, HttpServletRequest http) {
        return evaluate(body, TaxonomyImport.Format.of(http.getContentType(), null), "request body", http);
    }

    private ResponseEntity<EvaluationReport> evaluate(String text, TaxonomyImport.Format format, String source,
            HttpServletRequest http) {
        List<Map<String, String>> items = LabelledRows.read(text, format, json);
        EvaluationReport report = evaluator.evaluate(items);
        evaluations.save(report, actor(http), source == null ? "upload" : source);
        AuditTrail.note(http, "intent.evaluate", "intent evaluation", null, report.items() + " items");
        return ResponseEntity.status(HttpStatus.CREATED).body(report);
    }

    @GetMapping("/evaluations/latest")
    EvaluationReport latest() {
        return evaluations.latest(evaluator.kind()).orElseThrow(() -> new NotFound("no intent evaluation yet"));
    }

    private Map<String, Object> view(StoredModel m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("version", m.version());
        out.put("current", m.current());
        out.put("note", m.note());
        out.put("createdBy", m.createdBy());
        out.put("createdAt", m.createdAt());
        JsonNode evaluation = m.evaluation() == null ? null : json.readTree(m.evaluation());
        out.put("evaluation", evaluation);
        return out;
    }

    private static String describe(IntentDefinition d) {
        return "priority=" + d.priority() + "; examples=" + d.examples().size();
    }

    private static String actor(HttpServletRequest http) {
        return http.getAttribute(ApiCaller.ATTRIBUTE) instanceof ApiCaller caller ? caller.actor() : "api";
    }

    static final class NotFound extends RuntimeException {
        NotFound(String message) {
            super(message);
        }
    }

    @ExceptionHandler(NotFound.class)
    ResponseEntity<ProblemDetail> notFound(NotFound e) {
        return problem(HttpStatus.NOT_FOUND, ProblemTypes.NOT_FOUND, "Not found", e.getMessage());
    }

    @ExceptionHandler(TaxonomyImportException.class)
    ResponseEntity<ProblemDetail> badImport(TaxonomyImportException e) {
        ResponseEntity<ProblemDetail> r = problem(HttpStatus.BAD_REQUEST, INVALID_IMPORT, "Invalid intent file", e.getMessage());
        if (e.line() > 0) {
            r.getBody().setProperty("line", e.line());
        }
        return r;
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> invalid(IllegalArgumentException e) {
        return problem(HttpStatus.BAD_REQUEST, ProblemTypes.INVALID_REQUEST, "Invalid request", e.getMessage());
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, URI type, String title, String detail) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .body(ProblemExceptionHandler.problem(status, type, title, detail));
    }

    /** Labelled rows of an evaluation file, by column / field name. */
    static final class LabelledRows {
        static List<Map<String, String>> read(String text, TaxonomyImport.Format format, ObjectMapper json) {
            if (format == TaxonomyImport.Format.CSV) {
                CsvTable.Table table;
                try {
                    table = CsvTable.read(text, true, TaxonomyImport.MAX_LINES);
                } catch (CsvTable.CsvException e) {
                    throw new TaxonomyImportException(e.line(), e.getMessage());
                }
                if (!table.header().isEmpty() && !table.header().contains("text") && !table.header().contains("message")) {
                    throw new TaxonomyImportException(1, "the header has no text column");
                }
                return table.rows().stream().map(CsvTable.Row::fields).toList();
            }
            List<Map<String, String>> rows = new ArrayList<>();
            String[] lines = text.split("\r?\n");
            for (int i = 0; i < lines.length; i++) {
                String line = i == 0 && lines[i].startsWith("\uFEFF") ? lines[i].substring(1) : lines[i];
                if (line.isBlank()) {
                    continue;
                }
                Map<String, String> row = new LinkedHashMap<>();
                JsonNode node;
                try {
                    node = json.readTree(line);
                } catch (RuntimeException e) {
                    throw new TaxonomyImportException(i + 1, "not a JSON object");
                }
                if (node == null || !node.isObject()) {
                    throw new TaxonomyImportException(i + 1, "not a JSON object");
                }
                for (var field : node.properties()) {
                    if (field.getValue().isValueNode() && !field.getValue().isNull()) {
                        row.put(field.getKey(), field.getValue().asString());
                    }
                }
                rows.add(row);
            }
            if (rows.size() > TaxonomyImport.MAX_LINES) {
                throw new TaxonomyImportException(0, "more than " + TaxonomyImport.MAX_LINES + " items");
            }
            return rows;
        }
    }
}
