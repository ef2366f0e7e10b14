package io.sluice.api.openai;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * Errors of the OpenAI-compatible front door in OpenAI's own shape,
 * {@code {"error": {"message", "type", "param", "code"}}}: OpenAI SDKs turn the status into a typed
 * exception (NotFound, BadRequest, RateLimit …) and read {@code error.message} from this body; a
 * problem+json body would leave the SDK user with an empty message. (401 comes from the ingress
 * filter as problem+json, which SDKs still map by status.)
 */
public final class OpenAiError {

    private OpenAiError() {
    }

    /**
     * The same body written straight to a servlet response, for errors raised before a controller runs
     * (authentication, scopes, size limits, unknown paths, unsupported methods): {@code /v1/**} callers get
     * OpenAI's shape whatever refused them.
     */
    public static void write(HttpServletResponse response, int status, String type, String code, String param,
            String message) throws IOException {
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(tools.jackson.databind.json.JsonMapper.shared().writeValueAsString(body(type, code, param, message)));
    }

    /** The body, {@code {"error": {"message", "type", "param", "code"}}} in that order. */
    public static Map<String, Object> body(String type, String code, String param, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("message", message);
        error.put("type", type);
        error.put("param", param);
        error.put("code", code);
        return Map.of("error", error);
    }

    static ResponseEntity<Object> of(HttpStatus status, String type, String code, String param, String message,
            Duration retryAfter) {
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON);
        if (retryAfter != null) {
            builder.header(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000)));
        }
        return builder.body(body(type, code, param, message));
    }

    static ResponseEntity<Object> invalid(String param, String message) {
        return of(HttpStatus.BAD_REQUEST, "invalid_request_error", null, param, message, null);
    }
}
