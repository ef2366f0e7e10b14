package io.sluice.api.intent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Labelled example messages, read from a TSV file ({@code text<TAB>label}, a header row
 * {@code text	intent}, blank lines and {@code #} comments skipped). A row with an unknown label or without
 * a tab is refused with its line number: a bad file must not quietly teach the classifier nothing.
 */
public final class IntentExamples {

    public record Example(String text, ExampleLabel label) {
        public Example {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(label, "label");
        }
    }

    private IntentExamples() {
    }

    public static List<Example> read(InputStream in, String source) throws IOException {
        List<Example> examples = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (line.isBlank() || line.startsWith("#") || number == 1 && line.startsWith("text\t")) {
                    continue;
                }
                int tab = line.lastIndexOf('\t');
                String text = tab < 0 ? "" : line.substring(0, tab).trim();
                if (text.isEmpty()) {
                    throw new IllegalArgumentException(source + " line " + number + ": expected 'text<TAB>label'");
                }
                String code = line.substring(tab + 1);
                String where = source + " line " + number;
                ExampleLabel label = ExampleLabel.parse(code).orElseThrow(() -> new IllegalArgumentException(
                    where + ": unknown label '" + code.trim() + "' (one of "
                        + java.util.Arrays.stream(ExampleLabel.values()).map(ExampleLabel::code).toList() + ")"));
                examples.add(new Example(text, label));
            }
        }
        if (examples.isEmpty()) {
            throw new IllegalArgumentException(source + ": no examples");
        }
        return List.copyOf(examples);
    }
}
