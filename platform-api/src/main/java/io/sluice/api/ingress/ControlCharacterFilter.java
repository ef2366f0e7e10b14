package io.sluice.api.ingress;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.api.problem.ApiErrorResponses;
import io.sluice.problem.ProblemTypes;
import io.sluice.web.text.SafeText;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * One rule for control characters in everything the API is sent: NUL and the other C0 controls (except
 * tab, LF, CR), DEL and the C1 controls are refused with 400 {@code invalid-request} wherever they
 * appear, in a JSON string (written as {@code \}{@code u0000} escapes or raw), a query parameter, a form
 * field or the path. PostgreSQL cannot store NUL, so before this rule they became 500s, or a chat answer
 * whose exchange was silently not recorded. The detail names the character, never the input around it.
 * Runs after authentication and the size limit, so the body it reads is bounded.
 */
public class ControlCharacterFilter extends OncePerRequestFilter {

    private final long maxBytes;

    public ControlCharacterFilter(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI();
        return !(path.startsWith("/api/") || path.startsWith("/v1/"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String uri = request.getRequestURI();
        if (uri.contains("%00") || forbidden(request.getServletPath()) >= 0) {
            refuse(request, response, "the path");
            return;
        }
        HttpServletRequest next = request;
        if (json(request.getContentType())) {
            byte[] body = request.getInputStream().readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            int bad = forbiddenInJson(new String(body, StandardCharsets.UTF_8));
            if (bad >= 0) {
                refuse(request, response, "a JSON string", bad);
                return;
            }
            next = new BufferedBodyRequest(request, body);
        }
        for (Map.Entry<String, String[]> parameter : next.getParameterMap().entrySet()) {
            if (forbidden(parameter.getKey()) >= 0) {
                refuse(request, response, "a parameter name");
                return;
            }
            for (String value : parameter.getValue()) {
                if (forbidden(value) >= 0) {
                    refuse(request, response, "a parameter");
                    return;
                }
            }
        }
        chain.doFilter(next, response);
    }

    private static boolean json(String contentType) {
        if (contentType == null) {
            return false;
        }
        String base = contentType.split(";")[0].trim().toLowerCase(java.util.Locale.ROOT);
        return base.equals("application/json") || base.endsWith("+json");
    }

    /** Index of the first forbidden character, or -1. */
    static int forbidden(String text) {
        if (text == null) {
            return -1;
        }
        for (int i = 0; i < text.length(); i++) {
            if (SafeText.forbiddenInText(text.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The first forbidden character in a JSON text's strings, raw or as a {@code \}{@code uXXXX} escape
     * (as code point), or -1. Backslashes are only meaningful inside strings in valid JSON, so a plain scan
     * of escapes is exact; invalid JSON is left to the parser (it answers 400 malformed-request).
     */
    static int forbiddenInJson(String json) {
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '\\' && i + 1 < json.length()) {
                char escaped = json.charAt(++i);
                if (escaped == 'u' && i + 4 < json.length()) {
                    try {
                        int code = Integer.parseInt(json.substring(i + 1, i + 5), 16);
                        if (SafeText.forbiddenInText(code)) {
                            return code;
                        }
                    } catch (NumberFormatException e) {
                        return -1; // not valid JSON: the parser says so
                    }
                    i += 4;
                }
            } else if (c >= 0x7f && SafeText.forbiddenInText(c)) {
                return c;
            }
        }
        return -1;
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, String where)
            throws IOException {
        ApiErrorResponses.write(request, response, 400, ProblemTypes.INVALID_REQUEST, "Invalid request",
            where + " contains a control character; remove it (NUL, C0 controls other than tab/CR/LF, DEL and C1 "
                + "controls are refused)");
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, String where, int code)
            throws IOException {
        ApiErrorResponses.write(request, response, 400, ProblemTypes.INVALID_REQUEST, "Invalid request",
            where + " contains the control character " + String.format("U+%04X", code) + "; remove it (NUL, C0 "
                + "controls other than tab/CR/LF, DEL and C1 controls are refused)");
    }
}
