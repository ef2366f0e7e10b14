package io.sluice.semantics.intent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.sluice.semantics.files.CsvTable;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Reads an operator's labelled file into a {@link TaxonomyChange}, validating every line before
 * anything is stored.
 *
 * <p>CSV ({@link CsvTable}: RFC 4180 quoting with commas, quotes and line breaks in fields, UTF-8 with or
 * without a byte order mark, a header row naming the columns): {@code text,intent} rows add
 * examples to intents that exist (or are defined elsewhere in the file); a {@code priority} column
 * creates the intent when it does not exist (or updates its class); {@code description} is optional.
 * So a labelled training file with many fine intents, each mapped to S/A/B, imports as it is.
 *
 * <p>JSONL: one object per line, either an example {@code {"text":…,"intent":…,"priority":…}} or a
 * whole intent {@code {"intent":…,"priority":…,"description":…,"examples":[…]}}.
 */
public final class TaxonomyImport {

    /** Lines beyond which a file is refused (a file this long is not a taxonomy). */
    public static final int MAX_LINES = 200_000;
    public static final int MAX_TEXT = 2_000;

    private final Map<String, Draft> intents = new LinkedHashMap<>();
    private final List<Example> examples = new ArrayList<>();

    private static final class Draft {
        String priority;
        String description = "";
        final List<String> examples = new ArrayList<>();
        int line;
    }

    private record Example(String text, String intent, int line) {
    }

    private TaxonomyImport() {
    }

    public enum Format {
        CSV, JSONL;

        /** From a content type or file name ({@code text/csv}, {@code x.jsonl}); CSV unless it says JSON. */
        public static Format of(String contentType, String fileName) {
            String hint = ((contentType == null ? "" : contentType) + " " + (fileName == null ? "" : fileName))
                .toLowerCase(Locale.ROOT);
            return hint.contains("json") ? JSONL : CSV;
        }
    }

    /**
     * Parses and validates; {@code existing} maps the keys already in the taxonomy to their class.
     *
     * @throws TaxonomyImportException naming the first bad line
     */
    public static TaxonomyChange read(Reader in, Format format, Map<String, String> existing, String owner)
            throws IOException {
        TaxonomyImport file = new TaxonomyImport();
        try (BufferedReader reader = new BufferedReader(in)) {
            if (format == Format.CSV) {
                file.readCsv(reader);
            } else {
                file.readJsonl(reader);
            }
        }
        return file.change(existing.keySet(), owner);
    }

    private void readCsv(BufferedReader reader) throws IOException {
        StringBuilder text = new StringBuilder();
        char[] buffer = new char[8192];
        for (int n; (n = reader.read(buffer)) > 0; ) {
            text.append(buffer, 0, n);
        }
        CsvTable.Table table;
        try {
            table = CsvTable.read(text.toString(), true, MAX_LINES);
        } catch (CsvTable.CsvException e) {
            throw new TaxonomyImportException(e.line(), e.getMessage());
        }
        if (table.header().isEmpty()) {
            throw new TaxonomyImportException(0, "the file is empty (expected a header row such as text,intent,priority)");
        }
        Map<String, String> columns = header(table.header(), 1);
        for (CsvTable.Row row : table.rows()) {
            add(row.line(), cell(row, columns, "text"), cell(row, columns, "intent"), cell(row, columns, "priority"),
                cell(row, columns, "description"), List.of());
        }
    }

    private static String cell(CsvTable.Row row, Map<String, String> columns, String name) {
        String column = columns.get(name);
        String v = column == null ? null : row.get(column);
        return v == null ? null : v.strip();
    }

    /** Other names operators' files use for a field (a labelled data set's "label", "utterance"). */
    static final Map<String, List<String>> ALIASES = Map.of(
        "text", List.of("text", "message", "utterance", "example"),
        "intent", List.of("intent", "label", "intent_key"),
        "priority", List.of("priority", "class", "priority_class"),
        "description", List.of("description"));

    /** Field → the header's column for it; columns that are none of them are ignored (an id, a split, …). */
    private static Map<String, String> header(List<String> names, int number) {
        Map<String, String> columns = new LinkedHashMap<>();
        ALIASES.forEach((field, aliases) -> {
            for (String alias : aliases) {
                if (names.contains(alias)) {
                    if (columns.containsKey(field)) {
                        throw new TaxonomyImportException(number, "the header names the " + field + " twice ('"
                            + columns.get(field) + "' and '" + alias + "')");
                    }
                    columns.put(field, alias);
                }
            }
        });
        if (!columns.containsKey("intent")) {
            throw new TaxonomyImportException(number, "the header has no intent column (text,intent,priority[,description])");
        }
        return columns;
    }

    private void readJsonl(BufferedReader reader) throws IOException {
        ObjectMapper json = new ObjectMapper();
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
            number++;
            if (number > MAX_LINES) {
                throw new TaxonomyImportException(number, "more than " + MAX_LINES + " lines");
            }
            if (number == 1 && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            if (line.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = json.readTree(line);
            } catch (JacksonException e) {
                throw new TaxonomyImportException(number, "not a JSON object");
            }
            if (node == null || !node.isObject()) {
                throw new TaxonomyImportException(number, "not a JSON object");
            }
            List<String> listed = new ArrayList<>();
            JsonNode list = node.get("examples");
            if (list != null && !list.isNull()) {
                if (!list.isArray()) {
                    throw new TaxonomyImportException(number, "examples must be an array of strings");
                }
                for (JsonNode example : list) {
                    if (!example.isString()) {
                        throw new TaxonomyImportException(number, "examples must be an array of strings");
                    }
                    listed.add(example.asString().strip());
                }
            }
            add(number, field(node, "text", number), field(node, "intent", number), field(node, "priority", number),
                field(node, "description", number), listed);
        }
    }

    /** A field by its name or an alias; other fields of the object are ignored. */
    private static String field(JsonNode node, String field, int number) {
        for (String alias : ALIASES.get(field)) {
            if (node.has(alias) && !node.get(alias).isNull()) {
                return text(node, alias, number);
            }
        }
        return null;
    }

    private static String text(JsonNode node, String field, int number) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw new TaxonomyImportException(number, field + " must be a string");
        }
        return value.asString().strip();
    }

    private void add(int number, String text, String intent, String priority, String description, List<String> listed) {
        if (intent == null || intent.isEmpty()) {
            throw new TaxonomyImportException(number, "no intent");
        }
        String key = intent.toLowerCase(Locale.ROOT);
        try {
            IntentDefinition.requireKey(key);
        } catch (IllegalArgumentException e) {
            throw new TaxonomyImportException(number, e.getMessage());
        }
        boolean hasText = text != null && !text.isEmpty();
        if (!hasText && (priority == null || priority.isEmpty()) && listed.isEmpty()) {
            throw new TaxonomyImportException(number, "neither a text nor a priority class");
        }
        for (String t : hasText ? List.of(text) : listed) {
            if (t.isEmpty() || t.length() > MAX_TEXT) {
                throw new TaxonomyImportException(number, "an example must be 1-" + MAX_TEXT + " characters");
            }
        }
        if (priority != null && !priority.isEmpty()) {
            String p;
            try {
                p = IntentDefinition.requirePriority(priority);
            } catch (IllegalArgumentException e) {
                throw new TaxonomyImportException(number, e.getMessage());
            }
            Draft draft = intents.computeIfAbsent(key, k -> new Draft());
            if (draft.priority != null && !draft.priority.equals(p)) {
                throw new TaxonomyImportException(number, "intent " + key + " has class " + draft.priority + " on line "
                    + draft.line + " and " + p + " here");
            }
            if (draft.priority == null) {
                draft.priority = p;
                draft.line = number;
            }
            if (description != null && !description.isEmpty()) {
                draft.description = description;
            }
            if (hasText) {
                draft.examples.add(text);
            }
            draft.examples.addAll(listed);
        } else {
            if (hasText) {
                examples.add(new Example(text, key, number));
            }
            for (String t : listed) {
                examples.add(new Example(t, key, number));
            }
        }
    }

    private TaxonomyChange change(Set<String> existing, String owner) {
        List<IntentDefinition> defined = new ArrayList<>();
        intents.forEach((key, draft) -> defined.add(new IntentDefinition(key, draft.priority, draft.description,
            draft.examples.stream().distinct().toList(), owner, null)));
        List<LabelledText> extra = new ArrayList<>();
        for (Example example : examples) {
            Draft draft = intents.get(example.intent());
            if (draft != null) {
                extra.add(new LabelledText(example.text(), example.intent()));
            } else if (existing.contains(example.intent())) {
                extra.add(new LabelledText(example.text(), example.intent()));
            } else {
                throw new TaxonomyImportException(example.line(), "unknown intent '" + example.intent()
                    + "' (give a priority column to create it)");
            }
        }
        if (defined.isEmpty() && extra.isEmpty()) {
            throw new TaxonomyImportException(0, "the file holds no intents or examples");
        }
        return new TaxonomyChange(defined, extra, false);
    }

}
