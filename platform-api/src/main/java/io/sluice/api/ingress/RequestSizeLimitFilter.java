package io.sluice.api.ingress;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.api.ApiPaths;
import io.sluice.api.problem.ApiErrorResponses;
import io.sluice.problem.ProblemTypes;

import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses API bodies over the size limit before anything parses them (413 problem+json). A body
 * with a Content-Length is judged by it; a chunked body is read up to the limit and refused when it
 * goes past it. Document uploads have their own, larger limit.
 */
public class RequestSizeLimitFilter extends OncePerRequestFilter {

    static final String UPLOAD_PATH = "/api/v1/knowledge/documents";
    /** Operator files that are uploads too: intent taxonomies and labelled evaluation files (issue 13). */
    static final java.util.List<String> INTENT_UPLOAD_PATHS = java.util.List.of("/api/v1/intents/import",
        "/api/v1/intents/evaluations");
    /**
     * The FAQ operator files (a bulk import of a few thousand entries is ~1 MB) and the labelled files that
     * evaluate or calibrate on them: under the 64 KiB API limit they were refused with 413.
     */
    static final java.util.List<String> FAQ_UPLOAD_PATHS = java.util.List.of("/api/v1/knowledge/faq/import",
        "/api/v1/semantics/evaluations/faq-queries", "/api/v1/semantics/relevance/calibrations",
        "/api/v1/semantics/pairs", "/api/v1/semantics/pairs/evaluations");

    private final long maxBytes;
    private final long maxUploadBytes;

    public RequestSizeLimitFilter(long maxBytes, long maxUploadBytes) {
        this.maxBytes = maxBytes;
        this.maxUploadBytes = maxUploadBytes;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !ApiPaths.api(request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long limit = request.getRequestURI().startsWith(UPLOAD_PATH)
            || INTENT_UPLOAD_PATHS.contains(request.getRequestURI())
            || FAQ_UPLOAD_PATHS.contains(request.getRequestURI()) ? maxUploadBytes : maxBytes;
        long length = request.getContentLengthLong();
        if (length > limit) {
            refuse(request, response, "request body is " + length + " bytes; the limit is " + limit + " bytes");
            return;
        }
        if (length < 0 && hasBody(request)) {
            byte[] body = request.getInputStream().readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
            if (body.length > limit) {
                refuse(request, response, "request body is over the limit of " + limit + " bytes");
                return;
            }
            chain.doFilter(new BufferedBodyRequest(request, body), response);
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean hasBody(HttpServletRequest request) {
        String method = request.getMethod();
        return "POST".equals(method) || "PUT".equals(method) || "PATCH".equals(method);
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, String detail)
            throws IOException {
        ApiErrorResponses.write(request, response, HttpStatus.PAYLOAD_TOO_LARGE.value(), ProblemTypes.PAYLOAD_TOO_LARGE,
            "Payload too large", detail);
    }
}
