package io.sluice.api.chat;

import java.util.UUID;

import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitLease;

import org.springframework.stereotype.Service;

/**
 * The online chat pipeline. Each step is one line here, in the order a request meets it.
 */
@Service
public class ChatService {

    static final String INTERACTIVE_LANE = "interactive";

    private final ConversationStore conversations;
    private final ClusterPermits permits;
    private final AnsweringStep answering;

    public ChatService(ConversationStore conversations, ClusterPermits permits, AnsweringStep answering) {
        this.conversations = conversations;
        this.permits = permits;
        this.answering = answering;
    }

    public ChatResponse chat(ChatRequest request) {
        long started = System.nanoTime();
        UUID requestId = UUID.randomUUID();
        UUID sessionId = resolveSession(request);
        Answer answer = answerUnderPermit(request.message());
        long latencyMs = (System.nanoTime() - started) / 1_000_000;
        conversations.recordExchange(sessionId, request.userId(), requestId, request.message(), answer, latencyMs);
        return new ChatResponse(answer.text(), answer.tier(), answer.tier().badge(), answer.sources(), requestId,
            sessionId, latencyMs);
    }

    private UUID resolveSession(ChatRequest request) {
        if (request.sessionId() == null) {
            return UUID.randomUUID();
        }
        return conversations.findOwned(request.sessionId(), request.userId()).orElseGet(UUID::randomUUID);
    }

    private Answer answerUnderPermit(String message) {
        try (PermitLease permit = permits.acquire(INTERACTIVE_LANE)) {
            return answering.answer(message);
        }
    }
}
