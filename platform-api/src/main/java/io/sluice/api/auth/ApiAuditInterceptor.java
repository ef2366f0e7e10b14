package io.sluice.api.auth;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.web.audit.AuditTrail;
import io.sluice.web.caller.ApiCaller;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Audits every state change made through the API, like the console's: one {@code audit_log} entry
 * (source {@code api}, actor = the client) per successful (2xx) POST, PUT, PATCH or DELETE under
 * {@code /api/**} and {@code /v1/**}, whichever module serves it. A controller that knows what changed
 * leaves an {@link AuditTrail#note}; otherwise the entry names the method and path. Customer traffic is
 * not audited here: chat messages and feedback are recorded in the conversation log itself, and the
 * OpenAI front door's completions change nothing.
 */
public class ApiAuditInterceptor implements HandlerInterceptor {

    private static final Logger log = LoggerFactory.getLogger(ApiAuditInterceptor.class);

    private final AuditTrail audit;

    public ApiAuditInterceptor(AuditTrail audit) {
        this.audit = audit;
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
        String method = request.getMethod();
        if (ex != null || response.getStatus() >= 300 || !changes(method) || customerTraffic(request.getRequestURI())) {
            return;
        }
        if (!(request.getAttribute(ApiCaller.ATTRIBUTE) instanceof ApiCaller caller)) {
            return;
        }
        String pattern = (String) request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        AuditTrail.Note note = request.getAttribute(AuditTrail.NOTE_ATTRIBUTE) instanceof AuditTrail.Note n ? n
            : new AuditTrail.Note("api " + method + " " + (pattern != null ? pattern : request.getRequestURI()),
                request.getRequestURI(), null, "status " + response.getStatus());
        try {
            audit.record(AuditTrail.Source.API, caller.clientId(), caller.actor(), note.action(), note.target(),
                note.before(), note.after());
        } catch (RuntimeException e) {
            // the change is made and answered; losing its audit line is logged loudly, never hidden
            log.error("audit: entry for {} by client {} not written: {}", note.action(), caller.clientId(), e.toString());
        }
    }

    private static boolean changes(String method) {
        return "POST".equals(method) || "PUT".equals(method) || "PATCH".equals(method) || "DELETE".equals(method);
    }

    private static boolean customerTraffic(String path) {
        return path.startsWith("/api/v1/chat") || path.startsWith("/v1/chat/") || path.startsWith("/v1/embeddings")
            || path.startsWith("/v1/completions");
    }
}
