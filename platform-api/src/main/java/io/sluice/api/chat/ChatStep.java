package io.sluice.api.chat;

/**
 * One link of the chat pipeline (like a Sentinel slot): it does its part and passes the request on
 * with {@code next.proceed(ctx)}, or answers/refuses it itself. Work placed after {@code proceed}
 * runs on the way back out (recording, releasing a slot).
 */
@FunctionalInterface
public interface ChatStep {

    void apply(ChatContext ctx, Next next);

    /** The rest of the chain. */
    @FunctionalInterface
    interface Next {
        void proceed(ChatContext ctx);
    }
}
