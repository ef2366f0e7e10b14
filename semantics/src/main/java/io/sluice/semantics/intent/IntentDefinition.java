package io.sluice.semantics.intent;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One intent of the operator's taxonomy.
 *
 * @param key         stable name ({@code card_lost}); lower-case letters, digits, '_' or '-'
 * @param priority    admission class {@code S}, {@code A} or {@code B}
 * @param description what it means, for people (and the console)
 * @param examples    labelled example messages in any language (what the classifier learns from)
 * @param owner       who made it (an API client id, a console user, or {@code sample})
 */
public record IntentDefinition(String key, String priority, String description, List<String> examples, String owner,
        Instant updatedAt) {

    private static final Pattern KEY = Pattern.compile("[a-z0-9][a-z0-9_-]{0,79}");

    public IntentDefinition {
        requireKey(key);
        priority = requirePriority(priority);
        description = description == null ? "" : description.strip();
        examples = List.copyOf(Objects.requireNonNullElse(examples, List.of()));
    }

    public static void requireKey(String key) {
        if (key == null || !KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("an intent key is 1-80 lower-case letters, digits, '_' or '-'");
        }
    }

    /** The class, upper-cased; refuses anything but S, A or B. */
    public static String requirePriority(String priority) {
        String p = priority == null ? "" : priority.strip().toUpperCase(java.util.Locale.ROOT);
        if (!p.equals("S") && !p.equals("A") && !p.equals("B")) {
            throw new IllegalArgumentException("a priority class is S, A or B");
        }
        return p;
    }
}
