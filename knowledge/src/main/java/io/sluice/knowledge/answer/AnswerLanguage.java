package io.sluice.knowledge.answer;

import io.sluice.knowledge.embedding.Scripts;
import io.sluice.knowledge.text.TextNormalizer;

/**
 * The language a text is written in, as far as answering needs it: which FAQ entry or variant to
 * prefer and which language an LLM prompt asks for. Decided by script, not by a model: Latin letters
 * without CJK are English in this platform; Han text is Chinese, Traditional when the one normaliser
 * (Traditional → Simplified) changes any of its Han characters.
 */
public enum AnswerLanguage {

    ENGLISH("en", "Answer in English."),
    CHINESE_SIMPLIFIED("zh-Hans", "请用简体中文回答。(Answer in Simplified Chinese.)"),
    CHINESE_TRADITIONAL("zh-Hant", "請用繁體中文回答。(Answer in Traditional Chinese.)"),
    OTHER("und", "Answer in the language of the customer's message.");

    private final String code;
    private final String instruction;

    AnswerLanguage(String code, String instruction) {
        this.code = code;
        this.instruction = instruction;
    }

    /** BCP 47-style code ({@code en}, {@code zh-Hans}, {@code zh-Hant}, {@code und}). */
    public String code() {
        return code;
    }

    /** The sentence an LLM prompt carries so the model answers in this language. */
    public String instruction() {
        return instruction;
    }

    /** Both Chinese scripts count as one language when choosing an entry (the normaliser maps them). */
    public boolean sameLanguage(AnswerLanguage other) {
        return this == other || (isChinese() && other.isChinese());
    }

    public boolean isChinese() {
        return this == CHINESE_SIMPLIFIED || this == CHINESE_TRADITIONAL;
    }

    public static AnswerLanguage of(String text) {
        if (text == null || text.isBlank()) {
            return OTHER;
        }
        if (Scripts.latin(text)) {
            return ENGLISH;
        }
        StringBuilder han = new StringBuilder();
        text.codePoints().filter(cp -> Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN)
            .forEach(han::appendCodePoint);
        if (han.isEmpty()) {
            return OTHER;
        }
        String simplified = TextNormalizer.normalize(han.toString());
        return simplified.equals(han.toString()) ? CHINESE_SIMPLIFIED : CHINESE_TRADITIONAL;
    }
}
