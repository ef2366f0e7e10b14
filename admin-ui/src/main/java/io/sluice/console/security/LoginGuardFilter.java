package io.sluice.console.security;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.api.ingress.SourceAddressLimiter;
import io.sluice.web.http.UnreadBody;

import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * In front of the login form, before its body is read: one address may have only a few logins in flight
 * at once (a login whose body trickles in holds a server thread while it is read), and an address that
 * failed too often is refused. Both answer 429 at once and close the connection, without reading the body.
 */
class LoginGuardFilter extends OncePerRequestFilter {

    private final SourceAddressLimiter preAuth;

    LoginGuardFilter(SourceAddressLimiter preAuth) {
        this.preAuth = preAuth;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !("POST".equals(request.getMethod()) && "/login".equals(request.getRequestURI()));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String address = request.getRemoteAddr();
        if (!preAuth.allowed(address) || !preAuth.enter(address)) {
            UnreadBody.closeConnection(request);
            response.setHeader(HttpHeaders.CONNECTION, "close");
            response.setHeader(HttpHeaders.RETRY_AFTER, "5");
            response.sendError(429, "too many logins from this address");
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            preAuth.exit(address);
        }
    }
}
