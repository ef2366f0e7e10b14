package io.sluice.knowledge.faq;

/**
 * The FAQ entry that best matches a question.
 *
 * @param score   blended similarity 0..1 (embedding cosine and keyword overlap)
 * @param matched the question or phrasing that matched best
 */
public record FaqMatch(FaqEntry entry, float score, String matched) {

    public FaqMatch(FaqEntry entry, float score) {
        this(entry, score, entry.question());
    }
}
