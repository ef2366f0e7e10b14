package io.sluice.knowledge.faq;

/** FAQ mirror chunks hold the answer after this marker, so a composer can extract it. */
public final class FaqAnswerMarker {

    public static final String MARKER = "答：";

    private FaqAnswerMarker() {
    }

    /** The answer part of a FAQ mirror chunk, or null when the text has none. */
    public static String answerOf(String chunkText) {
        if (chunkText == null) {
            return null;
        }
        if (chunkText.startsWith(MARKER)) {
            return chunkText.substring(MARKER.length()).strip();
        }
        int at = chunkText.indexOf("\n" + MARKER);
        return at < 0 ? null : chunkText.substring(at + 1 + MARKER.length()).strip();
    }
}
