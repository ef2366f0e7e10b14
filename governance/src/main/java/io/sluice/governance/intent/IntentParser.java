package io.sluice.governance.intent;

import java.util.Locale;
import java.util.Set;

import io.sluice.governance.gateway.ResponseCheck;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an LLM's intent answer, {@code {"intent": "...", "confidence": 0.0-1.0}}, the way models
 * actually write it: inside a Markdown fence, with prose around it, numbers as strings. A pure
 * function: same text and whitelist, same result; no I/O.
 */
public final class IntentParser {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private IntentParser() {
    }

    /** The result of parsing: either an intent from the whitelist or why the text was rejected. */
    public sealed interface Result {
        record Parsed(String intent, double confidence) implements Result {
        }

        record Rejected(Problem problem, String detail) implements Result {
        }
    }

    public enum Problem { NO_JSON, TRUNCATED, MALFORMED, MISSING_FIELD, UNKNOWN_INTENT, CONFIDENCE_OUT_OF_RANGE }

    public static Result parse(String text, Set<String> whitelist) {
        if (text == null || text.isBlank()) {
            return new Result.Rejected(Problem.NO_JSON, "empty answer");
        }
        int start = text.indexOf('{');
        if (start < 0) {
            return new Result.Rejected(Problem.NO_JSON, "no JSON object in the answer");
        }
        int end = matchingBrace(text, start);
        if (end < 0) {
            return new Result.Rejected(Problem.TRUNCATED, "the JSON object never closes");
        }
        JsonNode node;
        try {
            node = JSON.readTree(text.substring(start, end + 1));
        } catch (JacksonException e) {
            return new Result.Rejected(Problem.MALFORMED, "not valid JSON: " + e.getOriginalMessage());
        }
        JsonNode intentNode = node.get("intent");
        JsonNode confidenceNode = node.get("confidence");
        if (intentNode == null || !intentNode.isString() || intentNode.asString().isBlank()) {
            return new Result.Rejected(Problem.MISSING_FIELD, "no string field 'intent'");
        }
        if (confidenceNode == null || confidenceNode.isNull()) {
            return new Result.Rejected(Problem.MISSING_FIELD, "no field 'confidence'");
        }
        String intent = intentNode.asString().trim().toLowerCase(Locale.ROOT);
        if (!whitelist.contains(intent)) {
            return new Result.Rejected(Problem.UNKNOWN_INTENT, "intent '" + intent + "' is not one of " + whitelist);
        }
        double confidence;
        if (confidenceNode.isNumber()) {
            confidence = confidenceNode.asDouble();
        } else if (confidenceNode.isString()) {
            try {
                confidence = Double.parseDouble(confidenceNode.asString().trim());
            } catch (NumberFormatException e) {
                return new Result.Rejected(Problem.MALFORMED, "confidence '" + confidenceNode.asString() + "' is not a number");
            }
        } else {
            return new Result.Rejected(Problem.MALFORMED, "confidence is not a number");
        }
        if (Double.isNaN(confidence) || confidence < 0 || confidence > 1) {
            return new Result.Rejected(Problem.CONFIDENCE_OUT_OF_RANGE, "confidence " + confidence + " is outside [0, 1]");
        }
        return new Result.Parsed(intent, confidence);
    }

    /** A gateway check: answers that do not parse to a whitelisted intent count as failures. */
    public static ResponseCheck check(Set<String> whitelist) {
        Set<String> copy = Set.copyOf(whitelist);
        return text -> parse(text, copy) instanceof Result.Rejected rejected
            ? rejected.problem() + ": " + rejected.detail() : null;
    }

    /** Index of the brace closing the one at {@code start}, ignoring braces in strings; -1 if none. */
    private static int matchingBrace(String text, int start) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }
}
