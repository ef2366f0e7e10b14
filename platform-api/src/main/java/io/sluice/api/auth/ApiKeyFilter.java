package io.sluice.api.auth;

import java.io.IOException;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.problem.ProblemResponses;
import io.sluice.problem.ProblemTypes;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * API-key authentication for {@code /api/**} and {@code /v1/**}: {@code Authorization: Bearer <key>}
 * (what OpenAI SDKs send) or {@code X-API-Key: <key>}. Missing, unknown and revoked keys get the same
 * 401 problem+json, so a caller cannot probe which keys exist. Keys are never logged.
 */
public class ApiKeyFilter extends OncePerRequestFilter {

    static final String API_KEY_HEADER = "X-API-Key";

    private final ApiKeys keys;

    public ApiKeyFilter(ApiKeys keys) {
        this.keys = keys;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI();
        return !(path.startsWith("/api/") || path.startsWith("/v1/"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String key = presentedKey(request);
        if (key == null) {
            refuse(response, "an API key is required: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'");
            return;
        }
        Optional<ApiClient> client;
        try {
            client = keys.authenticate(key);
        } catch (DataAccessException e) {
            // the key store is unreachable: say so (503, retry) rather than a bare 500; keys seen
            // in the last cache-ttl still work
            response.setHeader(HttpHeaders.RETRY_AFTER, "5");
            ProblemResponses.write(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, ProblemTypes.SATURATED,
                "Authentication unavailable", "API keys cannot be checked right now; please retry shortly.");
            return;
        }
        if (client.isEmpty()) {
            refuse(response, "the API key is not valid or has been revoked");
            return;
        }
        request.setAttribute(ApiClient.ATTRIBUTE, client.get());
        chain.doFilter(request, response);
    }

    static String presentedKey(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String key = authorization.substring(7).trim();
            return key.isEmpty() ? null : key;
        }
        String header = request.getHeader(API_KEY_HEADER);
        return header == null || header.isBlank() ? null : header.trim();
    }

    private static void refuse(HttpServletResponse response, String detail) throws IOException {
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"sluice\"");
        ProblemResponses.write(response, HttpServletResponse.SC_UNAUTHORIZED, ProblemTypes.UNAUTHORIZED,
            "Unauthorized", detail);
    }
}
