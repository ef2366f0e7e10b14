package io.sluice.api.cache;

/**
 * The short form of a long answer, made when it is stored: its first sentences that fit in the limit
 * (Chinese and English sentence ends, line breaks), else its first {@code limit} characters and "…".
 * Extractive on purpose: it costs nothing at write time and can only leave out, never invent; a summary by
 * the light model would be one more LLM call per stored answer on the interactive lane, and the short form
 * is served at the level where that model is shed.
 */
public final class ShortForm {

    private static final String ENDS = "。！？!?；;\n";

    private ShortForm() {
    }

    /** The short form, or null when {@code text} is no longer than {@code limit}. */
    public static String of(String text, int limit) {
        if (text == null) {
            return null;
        }
        String t = text.strip();
        if (t.length() <= limit) {
            return null;
        }
        int cut = -1;
        for (int i = 0; i < limit; i++) {
            char c = t.charAt(i);
            boolean end = ENDS.indexOf(c) >= 0
                || c == '.' && (i + 1 == t.length() || Character.isWhitespace(t.charAt(i + 1)));
            if (end) {
                cut = i + 1;
            }
        }
        if (cut <= 0) {
            return t.substring(0, limit).strip() + "…";
        }
        return t.substring(0, cut).strip();
    }
}
