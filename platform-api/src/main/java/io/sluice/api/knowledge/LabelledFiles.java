package io.sluice.api.knowledge;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.semantics.files.CsvTable;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Operator files, CSV (a header line names the columns; {@link CsvTable}) or JSONL (one JSON object a
 * line), read into one map per line. JSON arrays become their elements joined by {@code |} (the CSV
 * form of a list). Errors name the line, never echo its content.
 */
public final class LabelledFiles {

    public static final int MAX_LINES = 20_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private LabelledFiles() {
    }

    /** @param contentType decides the format: {@code text/csv} is CSV, anything else JSONL */
    public static List<Map<String, String>> read(byte[] body, String contentType) {
        if (body == null || body.length == 0) {
            throw new IllegalArgumentException("the file is empty");
        }
        String text = new String(body, StandardCharsets.UTF_8);
        if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
            text = text.substring(1);
        }
        boolean csv = contentType != null && contentType.toLowerCase().startsWith("text/csv");
        List<Map<String, String>> out = csv ? csv(text) : jsonl(text);
        if (out.isEmpty()) {
            throw new IllegalArgumentException("the file holds no lines");
        }
        if (out.size() > MAX_LINES) {
            throw new IllegalArgumentException("the file has more than " + MAX_LINES + " lines");
        }
        return out;
    }

    static List<Map<String, String>> jsonl(String text) {
        List<Map<String, String>> out = new ArrayList<>();
        String[] lines = text.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = JSON.readTree(lines[i]);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("line " + (i + 1) + " is not a JSON object");
            }
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException("line " + (i + 1) + " is not a JSON object");
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                JsonNode v = field.getValue();
                if (v.isArray()) {
                    List<String> parts = new ArrayList<>();
                    for (Iterator<JsonNode> it = v.iterator(); it.hasNext(); ) {
                        parts.add(it.next().asString());
                    }
                    row.put(field.getKey(), String.join("|", parts));
                } else if (!v.isNull()) {
                    row.put(field.getKey(), v.asString());
                }
            }
            out.add(row);
        }
        return out;
    }

    static List<Map<String, String>> csv(String text) {
        CsvTable.Table table;
        try {
            table = CsvTable.read(text, false, MAX_LINES + 1);
        } catch (CsvTable.CsvException e) {
            throw new IllegalArgumentException("line " + e.line() + ": " + e.getMessage());
        }
        return table.rows().stream().map(CsvTable.Row::fields).toList();
    }
}
