package io.sluice.api.openai;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Whether a /v1 caller accepts a degraded tier answer (F3–F1) instead of an error: the request says
 * so with {@code X-Sluice-Allow-Degraded: true}, or its key's gateway policy does. A generic OpenAI
 * client does neither and gets errors it can retry or fail over on.
 */
public final class DegradedOptIn {

    public static final String HEADER = "X-Sluice-Allow-Degraded";

    private DegradedOptIn() {
    }

    public static boolean requested(HttpServletRequest request, boolean keyAllows) {
        String header = request.getHeader(HEADER);
        if (header != null) {
            return "true".equalsIgnoreCase(header.trim()) || "1".equals(header.trim());
        }
        return keyAllows;
    }
}
