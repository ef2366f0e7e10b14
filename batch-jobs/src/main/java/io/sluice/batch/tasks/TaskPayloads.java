package io.sluice.batch.tasks;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

/**
 * Payload rules per task type. Unknown fields are refused too, so a typo never silently drops an option.
 * Returns readable messages naming each field; an empty list means valid.
 */
public final class TaskPayloads {

    public static final int MAX_QUESTION_CHARS = 4000;

    private static final Map<TaskType, Set<String>> ALLOWED = Map.of(
        TaskType.SUMMARIZE_CONVERSATION, Set.of("conversationId", "maxWords"),
        TaskType.SUMMARIZE_DOCUMENT, Set.of("documentId", "maxWords"),
        TaskType.DEFERRED_ANSWER, Set.of("question", "conversationId", "locale"));

    private TaskPayloads() {
    }

    public static List<String> validate(TaskType type, JsonNode payload) {
        List<String> errors = new ArrayList<>();
        if (payload == null || !payload.isObject()) {
            errors.add("payload must be a JSON object");
            return errors;
        }
        for (Iterator<String> names = payload.propertyNames().iterator(); names.hasNext();) {
            String name = names.next();
            if (!ALLOWED.get(type).contains(name)) {
                errors.add("payload." + name + " is not a field of " + type.wire() + " (allowed: "
                    + ALLOWED.get(type).stream().sorted().toList() + ")");
            }
        }
        switch (type) {
            case SUMMARIZE_CONVERSATION -> {
                uuid(payload, "conversationId", true, errors);
                maxWords(payload, errors);
            }
            case SUMMARIZE_DOCUMENT -> {
                JsonNode id = payload.get("documentId");
                if (id == null || id.isNull()) {
                    errors.add("payload.documentId is required");
                } else if (!id.isIntegralNumber() || id.asLong() < 1) {
                    errors.add("payload.documentId must be a positive integer");
                }
                maxWords(payload, errors);
            }
            case DEFERRED_ANSWER -> {
                JsonNode question = payload.get("question");
                if (question == null || question.isNull()) {
                    errors.add("payload.question is required");
                } else if (!question.isString() || question.asString().isBlank()) {
                    errors.add("payload.question must be a non-blank string");
                } else if (question.asString().length() > MAX_QUESTION_CHARS) {
                    errors.add("payload.question must be at most " + MAX_QUESTION_CHARS + " characters");
                }
                uuid(payload, "conversationId", false, errors);
                JsonNode locale = payload.get("locale");
                if (locale != null && !locale.isNull()
                        && (!locale.isString() || !locale.asString().matches("[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*"))) {
                    errors.add("payload.locale must be a language tag such as zh-CN");
                }
            }
        }
        return errors;
    }

    private static void uuid(JsonNode payload, String field, boolean required, List<String> errors) {
        JsonNode value = payload.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                errors.add("payload." + field + " is required");
            }
            return;
        }
        if (!value.isString() || !isUuid(value.asString())) {
            errors.add("payload." + field + " must be a UUID");
        }
    }

    private static void maxWords(JsonNode payload, List<String> errors) {
        JsonNode value = payload.get("maxWords");
        if (value != null && !value.isNull() && (!value.isIntegralNumber() || value.asInt() < 10 || value.asInt() > 1000)) {
            errors.add("payload.maxWords must be an integer between 10 and 1000");
        }
    }

    static boolean isUuid(String text) {
        try {
            return UUID.fromString(text).toString().equalsIgnoreCase(text);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
