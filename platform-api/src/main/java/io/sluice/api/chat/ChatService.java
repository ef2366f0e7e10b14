package io.sluice.api.chat;

import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.auth.ApiClient;

/**
 * The online chat entry point: one context per request, through the {@link ChatPipeline}
 * (order declared in {@link ChatConfiguration#chatPipeline}).
 */
public class ChatService {

    private final ChatPipeline pipeline;

    public ChatService(ChatPipeline pipeline) {
        this.pipeline = pipeline;
    }

    public ChatResponse chat(ApiClient client, ChatRequest request) {
        return chat(client, request, PriorityAdmission.QueueListener.NONE);
    }

    /** With a listener told the queue position and ETA if the request has to wait (SSE). */
    public ChatResponse chat(ApiClient client, ChatRequest request, PriorityAdmission.QueueListener listener) {
        return chat(client, request, listener, null);
    }

    /** Streaming: LLM tiers write their tokens into {@code stream} as they come (SSE). */
    public ChatResponse chat(ApiClient client, ChatRequest request, PriorityAdmission.QueueListener listener,
            AnswerStream stream) {
        ChatContext ctx = new ChatContext(client, request, listener);
        ctx.stream(stream);
        pipeline.run(ctx);
        if (ctx.answer() == null) {
            throw new IllegalStateException("the chat pipeline produced no answer");
        }
        return ChatResponse.of(ctx);
    }
}
