package io.sluice.api.chat;

import java.util.List;

/** An ordered chain of {@link ChatStep}s; the order is declared once, in {@link ChatConfiguration}. */
public final class ChatPipeline {

    private final List<ChatStep> steps;

    public ChatPipeline(List<ChatStep> steps) {
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("a pipeline needs at least one step");
        }
        this.steps = List.copyOf(steps);
    }

    public void run(ChatContext ctx) {
        proceed(0, ctx);
    }

    private void proceed(int index, ChatContext ctx) {
        if (index < steps.size()) {
            steps.get(index).apply(ctx, next -> proceed(index + 1, next));
        }
    }

    public List<ChatStep> steps() {
        return steps;
    }
}
