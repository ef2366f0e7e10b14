package io.sluice.api.chat;

import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.auth.ApiClient;
import io.sluice.api.masking.PiiMasker;

/**
 * The online chat entry point: one context per request, through the {@link ChatPipeline}
 * (order declared in {@link ChatConfiguration#chatPipeline}).
 */
public class ChatService {

    private final ChatPipeline pipeline;
    private final PiiMasker masker;

    public ChatService(ChatPipeline pipeline) {
        this(pipeline, new PiiMasker());
    }

    public ChatService(ChatPipeline pipeline, PiiMasker masker) {
        this.pipeline = pipeline;
        this.masker = masker;
    }

    public ChatResponse chat(ApiClient client, ChatRequest request) {
        return chat(client, request, PriorityAdmission.QueueListener.NONE);
    }

    /** With a listener told the queue position and ETA if the request has to wait (SSE). */
    public ChatResponse chat(ApiClient client, ChatRequest request, PriorityAdmission.QueueListener listener) {
        return chat(client, request, listener, null);
    }

    /**
     * "More detail" on an earlier answer: the same question, never from the semantic cache, at F4 when the
     * level allows it now, else deferred for a full answer ({@link MoreDetailStep}).
     */
    public ChatResponse moreDetail(ApiClient client, ChatRequest request) {
        return run(new ChatContext(client, request.withUserId(masker.mask(request.userId())),
            PriorityAdmission.QueueListener.NONE), null, true);
    }

    /** Streaming: LLM tiers write their tokens into {@code stream} as they come (SSE). */
    public ChatResponse chat(ApiClient client, ChatRequest request, PriorityAdmission.QueueListener listener,
            AnswerStream stream) {
        // a userId holding a phone, ID or card number is masked before anything keys or stores it: the masked
        // form is the user from here on (two ids that mask alike are one user: clients should send opaque ids)
        return run(new ChatContext(client, request.withUserId(masker.mask(request.userId())), listener), stream, false);
    }

    private ChatResponse run(ChatContext ctx, AnswerStream stream, boolean moreDetail) {
        ctx.stream(stream);
        ctx.moreDetail(moreDetail);
        pipeline.run(ctx);
        if (ctx.answer() == null) {
            throw new IllegalStateException("the chat pipeline produced no answer");
        }
        return ChatResponse.of(ctx);
    }
}
