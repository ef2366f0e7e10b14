package io.sluice.knowledge.answer;

import java.util.List;

import io.sluice.knowledge.chain.Passage;

/**
 * The grounded answer prompt: numbered reference passages and the rule never to invent policies. One
 * text for every prompt that answers from the knowledge base — the chat's F4 tier and the deferred (F0)
 * answers the batch drain makes — so a deferred answer is held to the same rules as an online one.
 */
public final class GroundedPrompt {

    /** F4 / deferred system prompt; {@code %s} = {@link #numbered} passages. */
    public static final String FULL_SYSTEM_PROMPT = """
        You are a customer-service assistant. Answer the customer's last message from the reference passages
        below; cite them as [1], [2] where you use them. Be accurate and complete but concise, and reply in the
        customer's language. Never invent policies, amounts or dates the passages do not state; if they do not
        cover the question, say so and suggest contacting a human agent.
        Reference passages:
        %s""";

    private GroundedPrompt() {
    }

    /** Passages as {@code [n] title › heading} then the (clipped) text; FAQ passages carry their answer. */
    public static String numbered(List<Passage> passages, int maxChars) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < passages.size(); i++) {
            Passage p = passages.get(i);
            String text = p.answer() != null ? p.text() + "\n" + p.answer() : p.text();
            if (text.length() > maxChars) {
                text = text.substring(0, maxChars) + "…";
            }
            sb.append('[').append(i + 1).append("] ").append(p.source().title());
            if (p.source().heading() != null && !p.source().heading().isBlank()) {
                sb.append(" › ").append(p.source().heading());
            }
            sb.append('\n').append(text).append("\n\n");
        }
        return sb.toString().strip();
    }
}
