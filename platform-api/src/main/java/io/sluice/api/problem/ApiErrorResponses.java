package io.sluice.api.problem;

import java.io.IOException;
import java.net.URI;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.api.ApiPaths;
import io.sluice.api.openai.OpenAiError;
import io.sluice.problem.ProblemResponses;
import io.sluice.problem.ProblemTypes;

/**
 * Errors written outside the MVC exception handlers (filters, the error dispatch): problem+json under
 * {@code /api/**}, OpenAI's {@code {"error": {...}}} shape under {@code /v1/**} (through
 * {@link OpenAiError#write}), with the same stable problem type mapped to an OpenAI type and code.
 */
public final class ApiErrorResponses {

    private ApiErrorResponses() {
    }

    public static void write(HttpServletRequest request, HttpServletResponse response, int status, URI type,
            String title, String detail) throws IOException {
        write(request.getRequestURI(), response, status, type, title, detail);
    }

    public static void write(String path, HttpServletResponse response, int status, URI type, String title,
            String detail) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        // a filter's refusal comes before Spring Security's chain writes its headers: the same ones here
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate");
        if (ApiPaths.openAi(path)) {
            OpenAiError.write(response, status, openAiType(status), openAiCode(type), null, detail);
        } else {
            ProblemResponses.write(response, status, type, title, detail);
        }
    }

    static String openAiType(int status) {
        return switch (status) {
            case 401 -> "invalid_request_error";
            case 403 -> "permission_error";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "server_error" : "invalid_request_error";
        };
    }

    /** The last segment of the problem type, as OpenAI's snake_case code ({@code insufficient-scope} → {@code insufficient_scope}). */
    static String openAiCode(URI type) {
        if (ProblemTypes.UNAUTHORIZED.equals(type)) {
            return "invalid_api_key";
        }
        String path = type.getPath();
        if (path == null) {
            return null; // about:blank and other opaque types name no code
        }
        return path.substring(path.lastIndexOf('/') + 1).replace('-', '_');
    }
}
