package io.sluice.api.auth;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The one table of which scope each API path needs, checked by {@link ApiKeyFilter} for every request
 * under {@code /api/**} and {@code /v1/**}. The first rule that matches the method and path decides;
 * any of its scopes will do ({@link ApiScope#grantedBy}: {@code admin} always does). DEFAULT-DENY: an
 * {@code /api/**} path that no rule names needs {@code admin}, so a new endpoint is an operator's until
 * it is given a rule here.
 */
public final class ApiScopeRules {

    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");
    private static final PathPatternParser PARSER = new PathPatternParser();

    /**
     * @param methods  the HTTP methods this rule covers (empty = any)
     * @param pattern  a Spring path pattern
     * @param scopes   any one of these may call it
     */
    record Rule(Set<String> methods, PathPattern pattern, Set<ApiScope> scopes) {
        boolean matches(String method, PathContainer path) {
            return (methods.isEmpty() || methods.contains(method)) && pattern.matches(path);
        }
    }

    private static final Set<String> ANY = Set.of();
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    /** In order: specific paths first, then each area's reads and writes, then the operator default. */
    static final List<Rule> RULES = List.of(
        // chat API: messages, streams, feedback, the client's own sessions
        rule(ANY, "/api/v1/chat", ApiScope.CHAT),
        rule(ANY, "/api/v1/chat/stream", ApiScope.CHAT),
        rule(ANY, "/api/v1/chat/{requestId}/feedback", ApiScope.CHAT),
        rule(ANY, "/api/v1/chat/{requestId}/offer", ApiScope.CHAT),
        rule(READS, "/api/v1/sessions/**", ApiScope.CHAT),
        // tasks: submit needs tasks; a chat client reads its own deferred-answer tickets there too
        rule(Set.of("POST"), "/api/v1/tasks", ApiScope.TASKS),
        rule(READS, "/api/v1/tasks/{id}", ApiScope.TASKS, ApiScope.CHAT),
        // knowledge: hit testing reads (even as a POST); everything else that changes it writes
        rule(ANY, "/api/v1/knowledge/hit-test*/**", ApiScope.KNOWLEDGE_READ),
        rule(READS, "/api/v1/knowledge/**", ApiScope.KNOWLEDGE_READ),
        rule(WRITES, "/api/v1/knowledge/**", ApiScope.KNOWLEDGE_WRITE),
        rule(READS, "/api/v1/faq/**", ApiScope.KNOWLEDGE_READ),
        rule(WRITES, "/api/v1/faq/**", ApiScope.KNOWLEDGE_WRITE),
        // batch jobs
        rule(ANY, "/api/v1/jobs/**", ApiScope.JOBS),
        // semantics (intents, verifier, calibration): reads for knowledge readers, changes for operators
        rule(READS, "/api/v1/semantics/**", ApiScope.KNOWLEDGE_READ),
        rule(READS, "/api/v1/intents/**", ApiScope.KNOWLEDGE_READ),
        rule(ANY, "/api/v1/semantics/**", ApiScope.ADMIN),
        rule(ANY, "/api/v1/intents/**", ApiScope.ADMIN),
        // operator areas
        rule(ANY, "/api/v1/gateway/**", ApiScope.ADMIN),
        rule(ANY, "/api/v1/clients/**", ApiScope.ADMIN),
        // the OpenAI-compatible front door (chat completions, models, embeddings ...)
        rule(ANY, "/v1/**", ApiScope.OPENAI),
        // DEFAULT-DENY: whatever else is under /api needs an operator key
        rule(ANY, "/api/**", ApiScope.ADMIN));

    private ApiScopeRules() {
    }

    /** The scopes any one of which may call {@code method path}; {@code admin} when nothing matches. */
    public static Set<ApiScope> required(String method, String path) {
        PathContainer container = PathContainer.parsePath(path);
        for (Rule rule : RULES) {
            if (rule.matches(method, container)) {
                return rule.scopes();
            }
        }
        return EnumSet.of(ApiScope.ADMIN);
    }

    /** Whether {@code client} may call {@code method path}. */
    public static boolean allows(ApiClient client, String method, String path) {
        return required(method, path).stream().anyMatch(client::may);
    }

    private static Rule rule(Set<String> methods, String pattern, ApiScope... scopes) {
        return new Rule(methods, PARSER.parse(pattern), EnumSet.of(scopes[0], scopes));
    }
}
