package io.sluice.semantics.relevance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One labelled FAQ query: the question and the key of the FAQ entry that answers it, or no key for an
 * out-of-domain question (nothing in the knowledge base answers it).
 */
public record LabelledQuery(String query, String key) {

    public boolean inDomain() {
        return key != null && !key.isBlank();
    }

    /**
     * Reads parsed lines ({@code query} or {@code text}; {@code key}, {@code faq_key} or {@code expected}).
     *
     * @throws IllegalArgumentException naming the line (never echoing it) when a line has no query
     */
    public static List<LabelledQuery> of(List<Map<String, String>> items) {
        if (items == null || items.isEmpty()) {
            throw new IllegalArgumentException("the file holds no labelled queries");
        }
        List<LabelledQuery> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Map<String, String> item = items.get(i);
            String query = first(item, "query", "text", "question");
            if (query == null || query.isBlank()) {
                throw new IllegalArgumentException("item " + (i + 1) + " has no query");
            }
            if (query.length() > 2000) {
                throw new IllegalArgumentException("item " + (i + 1) + ": query longer than 2000 characters");
            }
            String key = first(item, "key", "faq_key", "expected");
            out.add(new LabelledQuery(query.strip(), key == null ? "" : key.strip()));
        }
        return out;
    }

    private static String first(Map<String, String> item, String... names) {
        for (String n : names) {
            String v = item.get(n);
            if (v != null) {
                return v;
            }
        }
        return null;
    }
}
