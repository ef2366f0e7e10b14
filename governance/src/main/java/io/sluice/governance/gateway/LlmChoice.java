package io.sluice.governance.gateway;

import tools.jackson.databind.JsonNode;

/**
 * One choice of a provider's answer, as the provider gave it.
 *
 * @param index        its index ({@code n} > 1 gives several)
 * @param text         the message content ("" when the model only called tools)
 * @param toolCalls    the message's {@code tool_calls} array, or null
 * @param finishReason stop, length, tool_calls, content_filter, ... (null if the provider sent none)
 */
public record LlmChoice(int index, String text, JsonNode toolCalls, String finishReason) {

    public LlmChoice {
        text = text == null ? "" : text;
    }
}
