package io.sluice.governance.gateway;

import java.util.List;

/**
 * A call's token estimate for the token-per-minute reservation: prompt (one token per 4 characters,
 * rounded up, plus 4 per message for roles and framing) plus the completion cap. Deliberately on the
 * high side: the reservation is settled to the actual usage afterwards.
 */
public final class TokenEstimate {

    private TokenEstimate() {
    }

    public static int prompt(List<LlmMessage> messages) {
        int chars = 0;
        for (LlmMessage message : messages) {
            chars += message.content().length();
        }
        return (chars + 3) / 4 + 4 * messages.size();
    }

    public static int of(LlmRequest request) {
        return prompt(request.messages()) + request.maxTokens();
    }
}
