package io.sluice.knowledge.answer;

import io.sluice.knowledge.chain.Passage;

/**
 * An F1 answer composed without any LLM.
 *
 * @param text  readable answer, ending with the source and a plain "automatic answer" notice
 * @param basis the passage it came from, or null when nothing matched
 */
public record ExtractiveAnswer(String text, Passage basis) {

    public boolean matched() {
        return basis != null;
    }
}
