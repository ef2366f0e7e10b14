package io.sluice.app.support;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The real services the integration tests run against, from the environment that
 * {@code scripts/services-up.sh} prints (CI and the README's test command set it).
 */
public final class TestServices {

    private TestServices() {
    }

    /**
     * Points an application context at the real services with everything it keeps in Redis and on
     * disk under names of its own ({@code run}), so test classes never see each other's permits,
     * buckets, sessions, cache entries or level.
     */
    public static void isolated(DynamicPropertyRegistry registry, String run) {
        registry.add("sluice.db.url", TestServices::databaseUrl);
        registry.add("sluice.redis.url", TestServices::redisUrl);
        // tests read what they just wrote: retrieval on the primary here (the replica has ReadReplicaTest)
        registry.add("sluice.db.read-url", () -> "");
        registry.add("sluice.data-dir", () -> System.getProperty("java.io.tmpdir") + "/sluice-test-" + run);
        registry.add("sluice.gateway.key-prefix", () -> "test:" + run + ":gw:");
        registry.add("sluice.permits.key-prefix", () -> "test:" + run + ":permits:");
        registry.add("sluice.degradation.key-prefix", () -> "test:" + run + ":degradation:");
        registry.add("sluice.ingress.rate.user.key-prefix", () -> "test:" + run + ":bucket:");
        registry.add("sluice.ingress.rate.global.key-prefix", () -> "test:" + run + ":ingress:");
        registry.add("sluice.chat.session.key-prefix", () -> "test:" + run + ":session:");
        registry.add("sluice.chat.cache.key-prefix", () -> "test:" + run + ":cache:");
        registry.add("sluice.chat.admission.cluster.key-prefix", () -> "test:" + run + ":admission:");
        registry.add("sluice.semantics.key-prefix", () -> "test:" + run + ":semantics:");
        registry.add("sluice.gateway.allocation.key-prefix", () -> "test:" + run + ":alloc:");
        registry.add("sluice.ingress.rate.llm-calls.key-prefix", () -> "test:" + run + ":llm-calls:");
        // tests assert which FAQ entry answers: the warm ranking, however loaded the machine (the bounded wait
        // itself is FaqAnswerVectorsTest's)
        registry.add("sluice.knowledge.faq.answer-vector-wait", () -> "5m");
    }

    public static String databaseUrl() {
        return required("SLUICE_DB_URL");
    }

    public static String redisUrl() {
        return required("SLUICE_REDIS_URL");
    }

    private static String required(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set: run the tests through the README's test command "
                + "(scripts/test.sh), or `eval \"$(scripts/services-up.sh)\"` first");
        }
        return value;
    }
}
