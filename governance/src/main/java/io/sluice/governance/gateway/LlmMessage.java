package io.sluice.governance.gateway;

import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * One message of a prompt, carried to the provider unchanged.
 *
 * @param role       system, user, assistant or tool
 * @param content    its text ("" for an assistant message that only calls tools)
 * @param toolCalls  an assistant message's {@code tool_calls} array as the client sent it, or null
 * @param toolCallId a tool message's {@code tool_call_id}, or null
 * @param name       the optional participant name, or null
 */
public record LlmMessage(Role role, String content, JsonNode toolCalls, String toolCallId, String name) {

    public enum Role { SYSTEM, USER, ASSISTANT, TOOL }

    public LlmMessage {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
    }

    public LlmMessage(Role role, String content) {
        this(role, content, null, null, null);
    }

    public static LlmMessage system(String content) {
        return new LlmMessage(Role.SYSTEM, content);
    }

    public static LlmMessage user(String content) {
        return new LlmMessage(Role.USER, content);
    }

    public static LlmMessage tool(String toolCallId, String content) {
        return new LlmMessage(Role.TOOL, content, null, toolCallId, null);
    }

    /**
     * OpenAI's wire rule for a message that only called tools: its {@code content} is written as null, not "".
     * Both directions use it: a prompt sent to the provider and an answer written to a front-door client.
     */
    public static boolean contentIsNull(String content, JsonNode toolCalls) {
        return toolCalls != null && (content == null || content.isEmpty());
    }
}
