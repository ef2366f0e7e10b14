package io.sluice.semantics.files;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * The one reader of the operator's CSV files (intent taxonomies and evaluation files, labelled pairs,
 * FAQ imports and labelled queries): RFC 4180 through Apache Commons CSV — a header row naming the
 * columns, quoted fields that may hold commas, doubled quotes and line breaks, CRLF or LF, a UTF-8 byte
 * order mark ignored, blank lines skipped. Each row keeps the line it starts on, so a caller's message
 * can name it; errors name the line, never echo the text.
 */
public final class CsvTable {

    /** One data row: the 1-based line it starts on and its fields by column name (missing trailing = absent). */
    public record Row(int line, Map<String, String> fields) {

        public String get(String column) {
            return fields.get(column);
        }
    }

    /** A file that is not well-formed CSV, with the line where the bad record starts. */
    public static final class CsvException extends IllegalArgumentException {
        private final int line;

        public CsvException(int line, String message) {
            super(message);
            this.line = line;
        }

        public int line() {
            return line;
        }
    }

    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setIgnoreEmptyLines(true).get();

    private CsvTable() {
    }

    /**
     * Reads a whole file.
     *
     * @param lowerCaseHeader column names case-folded ({@code Text} = {@code text}); false keeps them as
     *                        written (stripped)
     * @param maxRows         data rows beyond which the file is refused
     * @return the header (as read) and the rows; no rows when the file holds only a header
     * @throws CsvException an unclosed quote, text after a closing quote, a row with more fields than the header,
     *                      a repeated column, too many rows
     */
    public static Table read(String text, boolean lowerCaseHeader, int maxRows) {
        String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
        int[] lineStarts = lineStarts(t);
        List<String> header = null;
        List<Row> rows = new ArrayList<>();
        int nextLine = 1;
        try (CSVParser parser = CSVParser.parse(new StringReader(t), FORMAT)) {
            Iterator<CSVRecord> records = parser.iterator();
            while (true) {
                CSVRecord record;
                try {
                    if (!records.hasNext()) {
                        break;
                    }
                    record = records.next();
                } catch (UncheckedIOException | IllegalStateException e) {
                    throw new CsvException(nextLine, problem(e));
                }
                // a record after blank lines is positioned at the first of them: skip to its first character
                long position = record.getCharacterPosition();
                while (position < t.length() && (t.charAt((int) position) == '\n' || t.charAt((int) position) == '\r')) {
                    position++;
                }
                int line = lineOf(lineStarts, position);
                nextLine = (int) parser.getCurrentLineNumber() + 1;
                List<String> values = record.toList();
                if (values.size() == 1 && values.get(0).isBlank()) {
                    continue;   // a line of white space
                }
                if (header == null) {
                    header = new ArrayList<>();
                    for (String name : values) {
                        String n = name.strip();
                        n = lowerCaseHeader ? n.toLowerCase(Locale.ROOT) : n;
                        if (!n.isEmpty() && header.contains(n)) {
                            throw new CsvException(line, "column '" + n + "' appears twice in the header");
                        }
                        header.add(n);
                    }
                    continue;
                }
                if (values.size() > header.size()) {
                    throw new CsvException(line, "it has " + values.size() + " fields; the header has "
                        + header.size() + " (quote a field that holds a comma)");
                }
                if (rows.size() >= maxRows) {
                    throw new CsvException(line, "more than " + maxRows + " rows");
                }
                Map<String, String> fields = new LinkedHashMap<>();
                for (int i = 0; i < values.size(); i++) {
                    if (!header.get(i).isEmpty()) {
                        fields.put(header.get(i), values.get(i));
                    }
                }
                rows.add(new Row(line, fields));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Table(header == null ? List.of() : List.copyOf(header), List.copyOf(rows));
    }

    /** The header (empty when the file is empty) and the data rows. */
    public record Table(List<String> header, List<Row> rows) {
    }

    private static String problem(RuntimeException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (m.contains("eof reached before encapsulated token finished")) {
            return "a quoted field is not closed";
        }
        if (m.contains("between encapsulated token and delimiter")) {
            return "text after the closing quote of a field (double a quote inside a quoted field: \"\")";
        }
        return "not well-formed CSV";
    }

    private static int[] lineStarts(String t) {
        int[] starts = new int[16];
        int n = 0;
        starts[n++] = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            boolean br = c == '\n' || (c == '\r' && (i + 1 >= t.length() || t.charAt(i + 1) != '\n'));
            if (br) {
                if (n == starts.length) {
                    starts = Arrays.copyOf(starts, n * 2);
                }
                starts[n++] = i + 1;
            }
        }
        return Arrays.copyOf(starts, n);
    }

    private static int lineOf(int[] starts, long position) {
        int at = Arrays.binarySearch(starts, (int) position);
        return at >= 0 ? at + 1 : -at - 1;
    }
}
