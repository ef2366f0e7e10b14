package io.sluice.api.ingress;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.api.ApiPaths;
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
        return !ApiPaths.api(request.getRequestURI());
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
            byte[] body = body(request);
            int bad = forbiddenInJson(body);
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

    /**
     * The body, read once. A declared length is read into an array of exactly that size: reading up to the limit
     * instead took 16 KB buffers and a copy for every call, the largest single allocation of a {@code /v1} call.
     */
    private byte[] body(HttpServletRequest request) throws IOException {
        long declared = request.getContentLengthLong();
        if (declared >= 0 && declared <= maxBytes) {
            byte[] body = new byte[(int) declared];
            int read = request.getInputStream().readNBytes(body, 0, body.length);
            return read == body.length ? body : Arrays.copyOf(body, read);
        }
        return request.getInputStream().readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
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
     * The first forbidden character in a UTF-8 JSON text's strings, raw or as a {@code \}{@code uXXXX} escape (as
     * code point), or -1. Read on the bytes, not a decoded copy: in UTF-8 the forbidden characters at and above
     * DEL are the byte 0x7F and the pairs 0xC2 0x80-0x9F (C1), and an escape's backslash, {@code u} and hex digits
     * are single bytes that no multi-byte character contains. Backslashes are only meaningful inside strings in
     * valid JSON, so a plain scan of escapes is exact; invalid JSON is left to the parser (it answers 400
     * malformed-request). Raw C0 controls are invalid in JSON strings, so the parser refuses those too.
     */
    static int forbiddenInJson(byte[] json) {
        int length = json.length;
        for (int i = 0; i < length; i++) {
            int b = json[i] & 0xff;
            if (b == '\\' && i + 1 < length) {
                int escaped = json[++i];
                if (escaped == 'u' && i + 4 < length) {
                    int code = 0;
                    for (int k = 1; k <= 4; k++) {
                        int digit = Character.digit(json[i + k], 16);
                        if (digit < 0) {
                            return -1; // not valid JSON: the parser says so
                        }
                        code = code * 16 + digit;
                    }
                    if (SafeText.forbiddenInText(code)) {
                        return code;
                    }
                    i += 4;
                }
            } else if (b == 0x7f) {
                return b; // DEL: the one forbidden single byte that JSON allows raw in a string
            } else if (b == 0xc2 && i + 1 < length && (json[i + 1] & 0xc0) == 0x80) {
                int code = 0x80 | (json[i + 1] & 0x3f); // a two-byte character led by 0xC2: U+0080-U+00BF
                if (SafeText.forbiddenInText(code)) {
                    return code;
                }
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
