package io.sluice.api.auth;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.api.ApiPaths;
import io.sluice.api.ingress.SourceAddressLimiter;
import io.sluice.api.problem.ApiErrorResponses;
import io.sluice.problem.ProblemTypes;
import io.sluice.web.caller.ApiCaller;
import io.sluice.web.http.UnreadBody;
import io.sluice.web.text.SafeText;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * API-key authentication and scopes for {@code /api/**} and {@code /v1/**}: {@code Authorization: Bearer
 * <key>} (what OpenAI SDKs send) or {@code X-API-Key: <key>}, in this order:
 * <ol>
 *   <li>a key seen recently is known from memory (no database);</li>
 *   <li>an address that sent too many bad keys is refused (429) before its next key is looked up
 *       ({@link SourceAddressLimiter});</li>
 *   <li>the key is looked up; missing, unknown and revoked keys get the same 401, so a caller cannot
 *       probe which keys exist, and a bad key takes one of the address's attempts;</li>
 *   <li>the key's scopes must cover the path ({@link ApiScopeRules}, default-deny): else 403
 *       {@code insufficient-scope}.</li>
 * </ol>
 * Errors are problem+json, OpenAI-shaped under {@code /v1}. Keys are never logged.
 */
public class ApiKeyFilter extends OncePerRequestFilter {

    static final String API_KEY_HEADER = "X-API-Key";
    private static final Logger log = LoggerFactory.getLogger(ApiKeyFilter.class);

    private final ApiKeys keys;
    private final SourceAddressLimiter preAuth;

    public ApiKeyFilter(ApiKeys keys, SourceAddressLimiter preAuth) {
        this.keys = keys;
        this.preAuth = preAuth;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !ApiPaths.api(request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String key = presentedKey(request);
        if (key == null) {
            refuse(request, response, "an API key is required: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'");
            return;
        }
        String address = request.getRemoteAddr();
        Optional<ApiClient> client = keys.known(key);
        if (client.isEmpty()) {
            if (!preAuth.allowed(address)) {
                UnreadBody.closeIfPending(request);
                response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds(preAuth.retryAfter(address))));
                ApiErrorResponses.write(request, response, 429, ProblemTypes.RATE_LIMITED, "Too many requests",
                    "Too many requests with invalid API keys from this address; retry later.");
                return;
            }
            try {
                client = keys.authenticate(key);
            } catch (DataAccessException e) {
                // the key store is unreachable: say so (503, retry) rather than a bare 500; keys seen
                // in the last cache-ttl still work
                response.setHeader(HttpHeaders.RETRY_AFTER, "5");
                ApiErrorResponses.write(request, response, HttpServletResponse.SC_SERVICE_UNAVAILABLE,
                    ProblemTypes.SATURATED, "Authentication unavailable",
                    "API keys cannot be checked right now; please retry shortly.");
                return;
            }
            if (client.isEmpty()) {
                preAuth.take(address);
                refuse(request, response, "the API key is not valid or has been revoked");
                return;
            }
        }
        ApiClient caller = client.get();
        String method = request.getMethod();
        String path = request.getRequestURI();
        if (!ApiScopeRules.allows(caller, method, path)) {
            Set<String> needed = ApiScope.wire(ApiScopeRules.required(method, path));
            log.info("api: client {} denied {} {} (needs one of {})", caller.id(), method, SafeText.forLog(path), needed);
            ApiErrorResponses.write(request, response, HttpServletResponse.SC_FORBIDDEN, ProblemTypes.INSUFFICIENT_SCOPE,
                "Insufficient scope", "This API key lacks the scope this endpoint needs: one of " + needed + ".");
            return;
        }
        request.setAttribute(ApiClient.ATTRIBUTE, caller);
        request.setAttribute(ApiCaller.ATTRIBUTE, caller.caller());
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

    private static long seconds(java.time.Duration wait) {
        return Math.max(1, (wait.toMillis() + 999) / 1000);
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, String detail)
            throws IOException {
        UnreadBody.closeIfPending(request); // a stranger's trickling body is never waited for
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"sluice\"");
        ApiErrorResponses.write(request, response, HttpServletResponse.SC_UNAUTHORIZED, ProblemTypes.UNAUTHORIZED,
            "Unauthorized", detail);
    }
}
