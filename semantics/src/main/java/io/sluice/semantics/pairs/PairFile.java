package io.sluice.semantics.pairs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.sluice.semantics.files.CsvTable;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an operator's labelled pair file: CSV with a header row ({@link CsvTable}) or JSON Lines, one
 * pair per line. Fields: {@code a}, {@code b} (or {@code question_a}, {@code question_b}), {@code same}
 * (yes/no, true/false, 1/0, same/different), optional {@code intent_a}, {@code intent_b}, {@code faq_a},
 * {@code faq_b} (or {@code intent} / {@code faq} for both). A bad line refuses the whole file with a
 * message naming the line and the field, never echoing the text.
 */
public final class PairFile {

    public static final int MAX_CHARS = 300;
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private PairFile() {
    }

    public enum Format {
        CSV, JSONL;

        public static Format of(String name) {
            return switch (name == null ? "" : name.toLowerCase(Locale.ROOT)) {
                case "csv", "text/csv" -> CSV;
                case "jsonl", "ndjson", "application/x-ndjson", "application/jsonl", "application/x-jsonlines" -> JSONL;
                default -> throw new IllegalArgumentException("format must be csv or jsonl");
            };
        }
    }

    /** Lines beyond which a file is refused before it is looked at row by row. */
    static final int MAX_ROWS = 1_000_000;

    /** Parses every line into fields by name (CSV columns or JSON fields), values as strings. */
    public static List<Map<String, String>> rows(String text, Format format) {
        return lines(text, format).stream().map(CsvTable.Row::fields).toList();
    }

    /** As {@link #rows}, each with the line it starts on. */
    public static List<CsvTable.Row> lines(String text, Format format) {
        if (format == Format.CSV) {
            try {
                return CsvTable.read(text, true, MAX_ROWS).rows();
            } catch (CsvTable.CsvException e) {
                throw new IllegalArgumentException("line " + e.line() + ": " + e.getMessage());
            }
        }
        return jsonl(text);
    }

    public static List<LabelledPair> parse(String text, Format format, int maxPairs) {
        List<CsvTable.Row> rows = lines(text, format);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("the file holds no pairs");
        }
        if (rows.size() > maxPairs) {
            throw new IllegalArgumentException("the file holds " + rows.size() + " pairs; at most " + maxPairs
                + " per import");
        }
        List<LabelledPair> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            try {
                out.add(pair(rows.get(i).fields(), i + 1, "import"));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage() + " (line " + rows.get(i).line() + ")");
            }
        }
        return out;
    }

    /** One labelled pair from a row; {@code item} is its position (1-based) for messages. */
    public static LabelledPair pair(Map<String, String> row, int item, String source) {
        String a = text(row, item, "a", "question_a");
        String b = text(row, item, "b", "question_b");
        String label = first(row, "same", "label", "same_answer");
        if (label == null) {
            throw new IllegalArgumentException("pair " + item + ": field 'same' is missing");
        }
        boolean same = switch (label.strip().toLowerCase(Locale.ROOT)) {
            case "yes", "y", "true", "1", "same" -> true;
            case "no", "n", "false", "0", "different" -> false;
            default -> throw new IllegalArgumentException("pair " + item
                + ": field 'same' must be yes/no, true/false, 1/0 or same/different");
        };
        String intent = key(row, item, "intent");
        String faq = key(row, item, "faq");
        return new LabelledPair(a, b, same, orElse(key(row, item, "intent_a"), intent),
            orElse(key(row, item, "intent_b"), intent), orElse(key(row, item, "faq_a"), faq),
            orElse(key(row, item, "faq_b"), faq), source);
    }

    private static String text(Map<String, String> row, int item, String name, String alias) {
        String value = first(row, name, alias);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("pair " + item + ": field '" + name + "' is missing or empty");
        }
        if (value.strip().length() > MAX_CHARS) {
            throw new IllegalArgumentException("pair " + item + ": field '" + name + "' is longer than " + MAX_CHARS
                + " characters");
        }
        return value.strip();
    }

    private static String key(Map<String, String> row, int item, String name) {
        String value = row.get(name);
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.strip().length() > 100) {
            throw new IllegalArgumentException("pair " + item + ": field '" + name + "' is longer than 100 characters");
        }
        return value.strip();
    }

    private static String first(Map<String, String> row, String... names) {
        for (String n : names) {
            if (row.get(n) != null) {
                return row.get(n);
            }
        }
        return null;
    }

    private static String orElse(String a, String b) {
        return a != null ? a : b;
    }

    private static List<CsvTable.Row> jsonl(String text) {
        List<CsvTable.Row> out = new ArrayList<>();
        String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
        String[] lines = t.split("\\r?\\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("line " + (i + 1) + " is not valid JSON");
            }
            if (!node.isObject()) {
                throw new IllegalArgumentException("line " + (i + 1) + " is not a JSON object");
            }
            Map<String, String> row = new LinkedHashMap<>();
            node.properties().forEach(e -> row.put(e.getKey().toLowerCase(Locale.ROOT),
                e.getValue().isNull() ? null : e.getValue().isString() ? e.getValue().asString() : e.getValue().toString()));
            out.add(new CsvTable.Row(i + 1, row));
        }
        return out;
    }
}
