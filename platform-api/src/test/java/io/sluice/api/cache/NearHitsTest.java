package io.sluice.api.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** What an instance may serve without asking Redis, against the real Redis change channel and a test clock. */
class NearHitsTest {

    final RedissonClient redisson = RedisSemanticCacheTest.redisson();
    final String channel = "test:near:" + UUID.randomUUID();
    final AtomicLong clock = new AtomicLong(1_000_000_000L);
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final NearHits near = new NearHits(redisson, channel, Duration.ofSeconds(5), meters, clock::get);

    @BeforeEach
    void listening() {
        // the subscription is made in the background; until it holds nothing is kept
        await().atMost(Duration.ofSeconds(10)).until(near::listening);
    }

    @AfterEach
    void close() {
        redisson.shutdown();
    }

    static CacheEntry entry(String id) {
        return new CacheEntry(id, "q", "q", "a", "F4", List.of(), List.of(), null, 0, Long.MAX_VALUE, null, null);
    }

    @Test
    void aConfirmedHitIsServedForTheAgeAndNotAfter() {
        near.confirm("space{1}h1", entry("e1"), 1.0, near.changes());

        clock.addAndGet(Duration.ofSeconds(5).toNanos());
        assertThat(near.get("space{1}h1")).extracting(n -> n.entry().id()).isEqualTo("e1");

        clock.addAndGet(1);
        assertThat(near.get("space{1}h1")).isNull();
    }

    @Test
    void aConfirmationThatRacedAChangeIsNotKept() {
        long before = near.changes();
        near.changed("space{1}\tother\t"); // any change seen while the round trip was out

        near.confirm("space{1}h1", entry("e1"), 1.0, before);

        assertThat(near.get("space{1}h1")).isNull();
    }

    @Test
    void aMessageOnTheChannelDropsTheQuestionAndEveryQuestionPointingAtTheGoneEntry() {
        near.confirm("space{1}h1", entry("e1"), 1.0, near.changes());      // the entry's own question
        near.confirm("space{1}h2", entry("e1"), 0.95, near.changes());     // a paraphrase an L2 hit pointed at it
        near.confirm("space{1}h3", entry("e3"), 1.0, near.changes());
        near.confirm("space{2}h4", entry("e1"), 1.0, near.changes());      // another space: ids are per space

        redisson.getTopic(channel, StringCodec.INSTANCE).publish("space{1}\th1\te1");

        await().atMost(Duration.ofSeconds(10)).until(() -> near.get("space{1}h1") == null);
        assertThat(near.get("space{1}h2")).isNull();
        assertThat(near.get("space{1}h3")).isNotNull();
        assertThat(near.get("space{2}h4")).isNotNull();
    }

    @Test
    void aStoreOverAnAliasDropsOnlyThatQuestion() {
        near.confirm("space{1}h1", entry("e1"), 1.0, near.changes());
        near.confirm("space{1}h2", entry("e1"), 0.95, near.changes());

        near.changed("space{1}\th2\t"); // the paraphrase got an answer of its own; e1 stays

        assertThat(near.get("space{1}h2")).isNull();
        assertThat(near.get("space{1}h1")).isNotNull();
    }

    @Test
    void anAgeOfZeroKeepsNothing() {
        NearHits off = new NearHits(redisson, channel, Duration.ZERO, new SimpleMeterRegistry(), clock::get);

        off.confirm("space{1}h1", entry("e1"), 1.0, off.changes());

        assertThat(off.get("space{1}h1")).isNull();
    }
}
