package io.sluice.api.auth;

import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an API key may do. Every key carries a set of them, chosen when the client is created (console or
 * {@code POST /api/v1/clients}); {@link ApiScopeRules} maps each path to the scope it needs.
 * {@link #ADMIN} satisfies every requirement (an operator's key); {@link #KNOWLEDGE_WRITE} includes
 * {@link #KNOWLEDGE_READ}.
 */
public enum ApiScope {
    /** the chat API: messages, streams, feedback, own sessions, own deferred-answer tickets */
    CHAT("chat"),
    /** the OpenAI-compatible front door {@code /v1/**} */
    OPENAI("openai"),
    /** queued work: submit tasks, read own tasks */
    TASKS("tasks"),
    /** read knowledge, FAQ candidates and snapshots, semantics, hit tests */
    KNOWLEDGE_READ("knowledge:read"),
    /** change knowledge: documents, FAQ entries, reviews, snapshot publish and rollback */
    KNOWLEDGE_WRITE("knowledge:write"),
    /** launch, stop, restart and watch batch jobs */
    JOBS("jobs"),
    /** operator: clients, gateway, semantics changes, and every path without its own mapping */
    ADMIN("admin");

    /** What the demo client gets. */
    public static final Set<ApiScope> DEMO = java.util.Collections.unmodifiableSet(EnumSet.of(CHAT, OPENAI));

    private final String wire;

    ApiScope(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** Whether a key holding {@code held} may do what this scope guards. */
    public boolean grantedBy(Collection<ApiScope> held) {
        return held.contains(this) || held.contains(ADMIN) || (this == KNOWLEDGE_READ && held.contains(KNOWLEDGE_WRITE));
    }

    public static Optional<ApiScope> fromWire(String name) {
        String wanted = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(s -> s.wire.equals(wanted)).findFirst();
    }

    /**
     * Parses a list of scope names (as given in the console or the API).
     *
     * @throws IllegalArgumentException naming the known scopes when one is unknown or none is given
     */
    public static Set<ApiScope> parse(Collection<String> names) {
        Set<ApiScope> scopes = EnumSet.noneOf(ApiScope.class);
        for (String name : names == null ? List.<String>of() : names) {
            if (name == null || name.isBlank()) {
                continue;
            }
            scopes.add(fromWire(name).orElseThrow(() -> new IllegalArgumentException(
                "unknown scope; known scopes: " + wireNames())));
        }
        if (scopes.isEmpty()) {
            throw new IllegalArgumentException("a client needs at least one scope; known scopes: " + wireNames());
        }
        return scopes;
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(ApiScope::wire).toList();
    }

    public static Set<String> wire(Collection<ApiScope> scopes) {
        return scopes.stream().map(ApiScope::wire).collect(Collectors.toCollection(java.util.TreeSet::new));
    }
}
