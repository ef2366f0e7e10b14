package io.sluice.api.chat;

import java.util.UUID;

import io.sluice.api.auth.ApiClient;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /api/v1/chat/{requestId}/feedback}: stores {@code helpful}; {@code moreDetail} re-asks
 * the question (as stored, masked) in the same session through the whole pipeline, so it is answered
 * never from the semantic cache, at F4 when the level allows it now, else with a deferred (F0) ticket for
 * the full answer ({@link MoreDetailStep}). Only the client that asked may give feedback (else 404).
 */
@RestController
public class FeedbackController {

    private final ConversationStore conversations;
    private final ChatService chat;

    public FeedbackController(ConversationStore conversations, ChatService chat) {
        this.conversations = conversations;
        this.chat = chat;
    }

    @PostMapping(path = "/api/v1/chat/{requestId}/feedback", consumes = MediaType.APPLICATION_JSON_VALUE,
        produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<ChatResponse> feedback(ApiClient client,
            @PathVariable UUID requestId, @RequestBody FeedbackRequest feedback) {
        ConversationStore.Exchange exchange = conversations.findExchange(requestId, client.id())
            .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no answer " + requestId + " for this client"));
        if (feedback.stored() == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "give 'helpful' (true/false) or 'moreDetail': true");
        }
        conversations.recordFeedback(requestId, feedback.stored());
        if (!feedback.wantsMoreDetail()) {
            return ResponseEntity.noContent().build();
        }
        return ResponseEntity.ok(chat.moreDetail(client,
            new ChatRequest(exchange.userId(), exchange.sessionId(), exchange.question(), true)));
    }
}
