package io.sluice.knowledge.embedding;

/** Language routing by script: which texts and queries the English model handles. */
public final class Scripts {

    private Scripts() {
    }

    /**
     * True when the text has Latin letters and no CJK (Han, kana, Hangul) characters: English in this
     * knowledge base. Mixed text goes to the Chinese model, which reads both.
     */
    public static boolean latin(String text) {
        if (text == null) {
            return false;
        }
        boolean letters = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isIdeographic(cp)) {
                return false;
            }
            Character.UnicodeScript script = Character.UnicodeScript.of(cp);
            if (script == Character.UnicodeScript.HIRAGANA || script == Character.UnicodeScript.KATAKANA
                    || script == Character.UnicodeScript.HANGUL) {
                return false;
            }
            letters |= script == Character.UnicodeScript.LATIN;
        }
        return letters;
    }
}
