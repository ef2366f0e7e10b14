package io.sluice.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;

import org.junit.jupiter.api.Test;

/** The one table of scopes per path: each area its own scope, and an unmapped API path is an operator's. */
class ApiScopeRulesTest {

    private static ApiClient client(ApiScope... scopes) {
        return new ApiClient(1, "c", "sk-sluice-abcd", ClientTier.STANDARD, EnumSet.of(scopes[0], scopes));
    }

    @Test
    void theDemoScopesReachChatAndTheFrontDoorOnly() {
        ApiClient demo = client(ApiScope.CHAT, ApiScope.OPENAI);
        assertThat(ApiScopeRules.allows(demo, "POST", "/api/v1/chat")).isTrue();
        assertThat(ApiScopeRules.allows(demo, "POST", "/api/v1/chat/stream")).isTrue();
        assertThat(ApiScopeRules.allows(demo, "GET", "/api/v1/sessions/3b2f")).isTrue();
        assertThat(ApiScopeRules.allows(demo, "GET", "/api/v1/tasks/3b2f")).as("its own deferred-answer tickets").isTrue();
        assertThat(ApiScopeRules.allows(demo, "POST", "/v1/chat/completions")).isTrue();
        assertThat(ApiScopeRules.allows(demo, "POST", "/v1/embeddings")).isTrue();
        assertThat(ApiScopeRules.allows(demo, "POST", "/api/v1/knowledge/faq")).isFalse();
        assertThat(ApiScopeRules.allows(demo, "DELETE", "/api/v1/knowledge/documents/x")).isFalse();
        assertThat(ApiScopeRules.allows(demo, "POST", "/api/v1/jobs/work-queue-drain/executions")).isFalse();
        assertThat(ApiScopeRules.allows(demo, "GET", "/api/v1/faq/candidates")).isFalse();
        assertThat(ApiScopeRules.allows(demo, "POST", "/api/v1/tasks")).isFalse();
    }

    @Test
    void writersReadAndHitTestsAreReads() {
        ApiClient writer = client(ApiScope.KNOWLEDGE_WRITE);
        ApiClient reader = client(ApiScope.KNOWLEDGE_READ);
        assertThat(ApiScopeRules.allows(writer, "GET", "/api/v1/knowledge/documents/jobs")).isTrue();
        assertThat(ApiScopeRules.allows(reader, "POST", "/api/v1/knowledge/hit-test")).isTrue();
        assertThat(ApiScopeRules.allows(reader, "POST", "/api/v1/knowledge/faq")).isFalse();
        assertThat(ApiScopeRules.allows(reader, "GET", "/api/v1/semantics/intents")).isTrue();
        assertThat(ApiScopeRules.allows(reader, "POST", "/api/v1/semantics/intents/activate")).isFalse();
    }

    @Test
    void anUnmappedApiPathNeedsAdminAndAdminMayDoAnything() {
        assertThat(ApiScopeRules.required("POST", "/api/v2/something-new")).containsExactly(ApiScope.ADMIN);
        assertThat(ApiScopeRules.required("PUT", "/api/v1/gateway/routes")).containsExactly(ApiScope.ADMIN);
        ApiClient admin = client(ApiScope.ADMIN);
        assertThat(ApiScopeRules.allows(admin, "POST", "/api/v2/something-new")).isTrue();
        assertThat(ApiScopeRules.allows(admin, "POST", "/api/v1/knowledge/faq")).isTrue();
        assertThat(ApiScopeRules.allows(client(ApiScope.JOBS, ApiScope.TASKS), "GET", "/api/v1/clients")).isFalse();
    }
}
