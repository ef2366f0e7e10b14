package io.sluice.api.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;

/** The Lua bucket against the real Redis from {@code SLUICE_REDIS_URL} (scripts/services-up.sh). */
class UserTokenBucketTest {

    final RedissonClient redisson = redisson();
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final String prefix = "test:" + UUID.randomUUID() + ":bucket:";
    // 4 tokens, refilling far too slowly to matter within a test
    final UserTokenBucket buckets = new UserTokenBucket(redisson,
        new RateLimitProperties.User(4, 0.001, 3, 0.5, prefix, Duration.ofMinutes(1)), meters);

    static RedissonClient redisson() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: run `eval \"$(scripts/services-up.sh)\"` first");
        }
        return Redisson.create(io.sluice.governance.cluster.RedisTopology.ofUrl(url).toConfig(3_000, 2_000, 0));
    }

    @AfterEach
    void close() {
        if (!redisson.isShutdown()) {
            redisson.getKeys().deleteByPattern(prefix + "*");
            redisson.shutdown();
        }
    }

    @Test
    void aBusyUserGetsTokensTakenAheadFromTheUpperHalfOfTheBucketAndWhatIsLeftGoesBack() {
        AtomicLong now = new AtomicLong();
        UserTokenBucket bucket = takingAhead(100, 1.0, now);
        for (int i = 0; i < 10; i++) {
            assertThat(bucket.take("dave", false).allowed()).isTrue();
        }
        assertThat(tokensInRedis("dave")).as("no demand measured yet: one take per request").isCloseTo(90, within(0.5));

        now.addAndGet(Duration.ofSeconds(1).toNanos()); // the interval ends: 10 requests in it
        for (int i = 0; i < 10; i++) {
            assertThat(bucket.take("dave", false).allowed()).isTrue();
        }
        assertThat(tokensInRedis("dave")).as("one round trip took the ten").isCloseTo(80, within(0.5));
        bucket.take("dave", false); // takes ten again, spends one
        assertThat(tokensInRedis("dave")).isCloseTo(70, within(0.5));

        now.addAndGet(Duration.ofMillis(2500).toNanos()); // past the take-ahead (the nine left go back) and a quiet interval
        bucket.take("dave", false);

        assertThat(tokensInRedis("dave")).as("70 + 9 given back - 1 taken (no demand in the last interval)")
            .isCloseTo(78, within(0.5));
    }

    @Test
    void nearItsLimitAUsersEveryRequestIsDecidedInRedis() {
        AtomicLong now = new AtomicLong();
        UserTokenBucket bucket = takingAhead(10, 0.5, now);
        bucket.take("erin", false);
        bucket.take("erin", false);
        now.addAndGet(Duration.ofSeconds(1).toNanos());

        assertThat(bucket.take("erin", false).allowed()).isTrue();
        assertThat(tokensInRedis("erin")).as("half full: nothing taken ahead").isCloseTo(2, within(0.5));
        assertThat(bucket.take("erin", false).allowed()).isTrue();
        assertThat(bucket.take("erin", false).allowed()).isTrue();
        assertThat(bucket.take("erin", false).allowed()).as("out of tokens, as without take-ahead").isFalse();
    }

    /** A bucket of {@code capacity} (a new user's too), refilling too slowly to matter, with a 1 s take-ahead on {@code now}. */
    private UserTokenBucket takingAhead(double capacity, double initialFraction, AtomicLong now) {
        RateLimitProperties.User properties = new RateLimitProperties.User(capacity, 0.001, 3, initialFraction, prefix,
            Duration.ofMinutes(1), capacity, Duration.ofDays(1), Duration.ofSeconds(1));
        return new UserTokenBucket(redisson, properties, () -> new UserLimits.Limits(capacity, 0.001, 3), meters, now::get);
    }

    private double tokensInRedis(String user) {
        String tokens = redisson.<String, String>getMap(prefix + "{" + UserTokenBucket.keyOf(user) + "}",
            org.redisson.client.codec.StringCodec.INSTANCE).get("tokens");
        return Double.parseDouble(tokens);
    }

    @Test
    void aNewUserStartsAtHalfCapacityThenWaits() {
        assertThat(buckets.take("alice", false).allowed()).isTrue();
        assertThat(buckets.take("alice", false).allowed()).isTrue();

        UserTokenBucket.Decision refused = buckets.take("alice", false);

        assertThat(refused.allowed()).isFalse();
        assertThat(refused.local()).isFalse();
        assertThat(refused.retryAfter()).isGreaterThan(Duration.ofSeconds(1));
        assertThat(buckets.take("bob", false).allowed()).as("buckets are per user").isTrue();
    }

    @Test
    void aUserNeverAnsweredHasTheSmallNewUserBucketAndTheFirstAnswerTopsItUpToAnEstablishedUsersStart() {
        // capacity 20, half full for an established user (10); a new user has at most 2 until answered
        UserTokenBucket small = new UserTokenBucket(redisson, new RateLimitProperties.User(20, 0.001, 3, 0.5, prefix,
            Duration.ofMinutes(1), 2, Duration.ofDays(1)), meters);
        UserTokenBucket.Decision first = small.take("carol", false);
        assertThat(first.allowed()).isTrue();
        assertThat(first.newUser()).isTrue();
        assertThat(small.take("carol", false).allowed()).isTrue();
        assertThat(small.take("carol", false).allowed()).as("the new-user bucket holds 2").isFalse();
        assertThat(small.answeredBefore("carol")).isFalse();

        small.markAnswered("carol", false);

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> small.answeredBefore("carol"));
        int allowed = 0;
        while (small.take("carol", false).allowed()) {
            allowed++;
        }
        assertThat(allowed).as("topped up by 10 - 2 = 8 on the first answer").isEqualTo(8);
        small.markAnswered("carol", false);   // later answers only renew the marker
        assertThat(small.take("carol", false).allowed()).isFalse();
        assertThat(small.take("dave", true).newUser()).isTrue();
    }

    @Test
    void anAnsweredUsersMarkerIsRenewedAtMostOnceAMinuteAndSetAgainOnceRedisLostIt() {
        UserTokenBucket bucket = new UserTokenBucket(redisson, new RateLimitProperties.User(20, 0.001, 3, 0.5, prefix,
            Duration.ofMinutes(1), 2, Duration.ofDays(30)), meters);
        var marker = redisson.getBucket(prefix + "{" + UserTokenBucket.keyOf("erin") + "}:answered",
            org.redisson.client.codec.StringCodec.INSTANCE);
        bucket.markAnswered("erin", false);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(marker::isExists);

        marker.delete(); // Redis lost it (a flush, a failover without the write)
        bucket.markAnswered("erin", false); // renewed a moment ago: no write

        org.awaitility.Awaitility.await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
            .until(() -> !marker.isExists());
        assertThat(bucket.take("erin", false).newUser()).as("the take sees the marker gone").isTrue();
        bucket.markAnswered("erin", false); // so the next answer sets it again
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(marker::isExists);
    }

    @Test
    void vipUsersGetThreeTimesTheCapacity() {
        int allowed = 0;
        while (buckets.take("vip", true).allowed()) {
            allowed++;
        }
        assertThat(allowed).isEqualTo(6);
    }

    @Test
    void failsOpenToALocalBucketWhenRedisIsDownAndSaysSoInMetrics() {
        redisson.shutdown();

        assertThat(buckets.take("carol", false)).satisfies(decision -> {
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.local()).isTrue();
        });
        assertThat(buckets.take("carol", false).allowed()).isTrue();
        assertThat(buckets.take("carol", false).allowed()).as("the local bucket keeps the same rules").isFalse();
        assertThat(meters.get("sluice.ingress.bucket.fallback").counter().count()).isEqualTo(3);
        assertThat(meters.get("sluice.ingress.bucket.redis").gauge().value()).isZero();
    }
}
