package io.sluice.app.support;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

import io.sluice.knowledge.sample.KnowledgeBootstrap;
import io.sluice.mock.MockProvider;

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

    /**
     * {@link #isolated} for the whole chat path with {@code mock} as the provider behind the governed gateway.
     * The machine is shared and loaded: retrieval tiers get generous time-outs so their breakers stay shut.
     */
    public static void chatAgainst(DynamicPropertyRegistry registry, String run, MockProvider mock) {
        isolated(registry, run);
        registry.add("sluice.gateway.base-url", mock::baseUrl);
        registry.add("sluice.knowledge.chain.vector-timeout", () -> "3s");
        registry.add("sluice.knowledge.chain.bm25-timeout", () -> "2s");
    }

    /** Waits for the sample knowledge to be loaded and indexed: before it, answers do not come from it. */
    public static void awaitKnowledge(KnowledgeBootstrap bootstrap) {
        await().atMost(Duration.ofMinutes(3)).until(() -> "ready".equals(bootstrap.status()));
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
