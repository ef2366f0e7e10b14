package io.sluice.knowledge.ingest;

import java.util.List;

/**
 * A document reduced to text sections, each under the heading path it sits in.
 *
 * @param title    the first top heading (or HTML title), may be null
 * @param sections in document order
 */
public record ParsedDocument(String title, List<Section> sections) {

    public ParsedDocument {
        sections = List.copyOf(sections);
    }

    /** @param heading heading path such as "退货退款政策 › 七天无理由退货"; empty for text before any heading */
    public record Section(String heading, String text) {
    }

    public boolean isBlank() {
        return sections.stream().allMatch(s -> s.text().isBlank());
    }
}
