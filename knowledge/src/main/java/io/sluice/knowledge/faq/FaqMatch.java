package io.sluice.knowledge.faq;

/** The FAQ entry that best matches a question, with the lexical score that chose it. */
public record FaqMatch(FaqEntry entry, float score) {
}
