package io.sluice.semantics.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.knowledge.support.TestDatabase;
import io.sluice.semantics.model.Activation.Action;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/** Two instances sharing the real PostgreSQL and Redis: versions, activation everywhere, rollback, bad payloads. */
class SemanticModelsTest {

    /** A toy model: the payload is a UTF-8 label; "bad" payloads do not decode. */
    static final ModelCodec<String> CODEC = payload -> {
        String text = new String(payload, StandardCharsets.UTF_8);
        if (text.startsWith("bad")) {
            throw new IllegalArgumentException("not a model");
        }
        return text;
    };

    final String kind = "test-" + UUID.randomUUID().toString().substring(0, 8);
    final RedissonClient redisson = redisson();
    final SemanticModelStore store = new SemanticModelStore(new JdbcTemplate(TestDatabase.get()),
        new DataSourceTransactionManager(TestDatabase.get()));
    final SemanticModels a = instance();
    final SemanticModels b = instance();
    final ActiveModel<String> onA = a.register(kind, CODEC, "default");
    final ActiveModel<String> onB = b.register(kind, CODEC, "default");

    SemanticModels instance() {
        SemanticModels models = new SemanticModels(store, redisson, "test:semantics:" + kind, Duration.ofSeconds(30),
            new SimpleMeterRegistry());
        models.start();
        return models;
    }

    @AfterEach
    void close() {
        a.stop();
        b.stop();
        redisson.shutdown();
    }

    @Test
    void theBuiltInDefaultAnswersUntilAVersionIsActivated() {
        StoredModel saved = a.save(kind, bytes("v1"), "{\"accuracy\":0.9}", "first", "tester");

        assertThat(saved.version()).isEqualTo(1);
        assertThat(saved.current()).isFalse();
        assertThat(saved.evaluation()).contains("accuracy");
        assertThat(onA.get()).isEqualTo("default");
        assertThat(onA.version()).isZero();
    }

    @Test
    void anActivatedVersionAnswersOnEveryInstance() {
        long v1 = a.save(kind, bytes("v1"), null, null, "tester").version();

        a.activate(kind, v1, Action.ACTIVATE, "tester", "better on the held-out split");

        assertThat(onA.get()).isEqualTo("v1");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(onB.get()).isEqualTo("v1"));
        assertThat(a.versions(kind, 10)).singleElement().satisfies(m -> assertThat(m.current()).isTrue());
        assertThat(a.history(kind, 10)).singleElement()
            .satisfies(h -> assertThat(h.action()).isEqualTo(Action.ACTIVATE));
    }

    @Test
    void rollbackPutsBackThePreviousVersionEverywhereAndFinallyTheDefault() {
        long v1 = a.save(kind, bytes("v1"), null, null, "tester").version();
        long v2 = a.save(kind, bytes("v2"), null, null, "tester").version();
        a.activate(kind, v1, Action.ACTIVATE, "tester", null);
        a.activate(kind, v2, Action.FORCE, "tester", "operator's choice");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(onB.get()).isEqualTo("v2"));

        assertThat(a.rollback(kind, "tester", "worse in production")).get()
            .satisfies(m -> assertThat(m.version()).isEqualTo(v1));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(onB.get()).isEqualTo("v1"));

        assertThat(a.rollback(kind, "tester", "back to the default")).isEmpty();
        assertThat(onA.get()).isEqualTo("default");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(onB.get()).isEqualTo("default"));
    }

    @Test
    void aPayloadThatDoesNotDecodeIsRefusedAndTheModelAnsweringStays() {
        long v1 = a.save(kind, bytes("v1"), null, null, "tester").version();
        a.activate(kind, v1, Action.ACTIVATE, "tester", null);

        assertThatThrownBy(() -> a.save(kind, bytes("bad model"), null, null, "tester"))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> a.activate(kind, 99, Action.FORCE, "tester", null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("v99");

        assertThat(onA.get()).isEqualTo("v1");
        assertThat(a.versions(kind, 10)).hasSize(1);
    }

    @Test
    void anInstanceStartingLaterCatchesUpToTheClusterVersion() {
        long v1 = a.save(kind, bytes("v1"), null, null, "tester").version();
        a.activate(kind, v1, Action.ACTIVATE, "tester", null);

        SemanticModels late = new SemanticModels(store, null, "unused", Duration.ofSeconds(30), new SimpleMeterRegistry());
        ActiveModel<String> onLate = late.register(kind, CODEC, "default");
        late.start();
        try {
            assertThat(onLate.get()).isEqualTo("v1");
            assertThat(onLate.version()).isEqualTo(v1);
        } finally {
            late.stop();
        }
    }

    @Test
    void kindsAreNamedPlainly() {
        assertThatThrownBy(() -> a.register("Bad Kind!", CODEC, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> a.register(kind, CODEC, "x")).isInstanceOf(IllegalStateException.class);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static RedissonClient redisson() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: run `eval \"$(scripts/services-up.sh)\"` first");
        }
        Config config = new Config();
        config.useSingleServer().setAddress(url).setTimeout(3_000);
        return Redisson.create(config);
    }
}
