package io.sluice.web.text;

/**
 * Text from outside (request fields, file names, user ids) made safe for log lines, and the control
 * characters Sluice refuses. Written here rather than taken from a library: it is a few lines, and the
 * rule (which characters, how they are shown) must be the same for every module that logs input.
 */
public final class SafeText {

    /** The longest piece of outside text one log line carries. */
    public static final int MAX_LOGGED_CHARS = 200;

    private SafeText() {
    }

    /**
     * The text for a log line: CR, LF and every other control or line-separator character escaped as
     * {@code \n}, {@code \r} or {@code \}{@code uXXXX} (so no input can forge a line), cut to
     * {@value #MAX_LOGGED_CHARS} characters.
     */
    public static String forLog(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_LOGGED_CHARS) + 8);
        for (int i = 0; i < text.length(); i++) {
            if (out.length() >= MAX_LOGGED_CHARS) {
                out.append('…');
                break;
            }
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (isControl(c) || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /**
     * A character free text may not hold: C0 controls other than tab, LF and CR, DEL and the C1 controls.
     * (PostgreSQL cannot store NUL in text; the others have no business in a customer message.)
     */
    public static boolean forbiddenInText(int c) {
        return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7f && c <= 0x9f);
    }

    /** Any control or line separator: identifiers (user ids, keys, names) may hold none. */
    public static boolean isControl(int c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029;
    }

    /** Whether an identifier holds a control character (then it is refused). */
    public static boolean hasControl(String id) {
        return id != null && id.chars().anyMatch(SafeText::isControl);
    }

    /** Whether free text holds a character {@link #forbiddenInText forbidden} in text. */
    public static boolean hasForbidden(String text) {
        return text != null && text.chars().anyMatch(SafeText::forbiddenInText);
    }

    /** Free text with forbidden characters removed (used for text extracted from documents). */
    public static String stripForbidden(String text) {
        if (text == null || !hasForbidden(text)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        text.chars().filter(c -> !forbiddenInText(c)).forEach(c -> out.append((char) c));
        return out.toString();
    }
}
