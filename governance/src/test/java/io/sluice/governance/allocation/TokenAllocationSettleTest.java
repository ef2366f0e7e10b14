package io.sluice.governance.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.cluster.RedisTopology;
import io.sluice.governance.gateway.RequestType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * Settlements are collected and sent in one script (real Redis): until then the window counts the higher
 * estimates, a refusal sends them first and asks again, and reading the window or closing sends them.
 */
class TokenAllocationSettleTest {

    private final String prefix = "test:alloc:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final RedissonClient redisson = redisson();
    private final TokenAllocation allocation = new TokenAllocation(redisson, properties(1_000), () -> 1, () -> 0,
        new SimpleMeterRegistry(), Duration.ofHours(1)); // sent only when the test makes it

    @AfterEach
    void close() {
        allocation.close();
        redisson.getKeys().deleteByPattern(prefix + "*");
        redisson.shutdown();
    }

    @Test
    void settlementsWaitInThisInstanceUntilTheWindowIsReadAndThenArriveTogether() {
        for (int call = 0; call < 20; call++) {
            TokenAllocation.Grant grant = allocation.admit(RequestType.FRONT_DOOR, 40);
            assertThat(grant).isInstanceOf(TokenAllocation.Grant.Admitted.class);
            allocation.settle(grant, 10);
        }

        assertThat(windowInRedis()).as("the window still counts the estimates").isEqualTo(800);
        assertThat(allocation.read().used()).as("reading sends this instance's settlements first").isEqualTo(200);
        assertThat(windowInRedis()).isEqualTo(200);
    }

    @Test
    void aRefusalSendsTheSettlementsAndAsksAgainOnSettledNumbers() {
        TokenAllocation.Grant big = allocation.admit(RequestType.FRONT_DOOR, 900);
        allocation.settle(big, 100);

        TokenAllocation.Grant next = allocation.admit(RequestType.FRONT_DOOR, 800);

        assertThat(next).isInstanceOf(TokenAllocation.Grant.Admitted.class);
        assertThat(windowInRedis()).isEqualTo(900);
        assertThat(allocation.admit(RequestType.FRONT_DOOR, 800)).as("nothing left to settle: a real refusal")
            .isInstanceOf(TokenAllocation.Grant.Refused.class);
    }

    @Test
    void aRefusalThatComesWhileTheTimerIsSendingTheSettlementsWaitsForThemAndAsksAgain() throws Exception {
        // the timer takes the settlements and sends them while a call is refused on the numbers before them: the call
        // finds nothing left to send itself, so it must wait for the timer's script instead of standing refused
        int refused = 0;
        for (int round = 0; round < 40; round++) {
            String roundPrefix = prefix + "race" + round + ":";
            TokenAllocation racing = new TokenAllocation(redisson, properties(1_000, roundPrefix), () -> 1, () -> 0,
                new SimpleMeterRegistry(), Duration.ofHours(1));
            try {
                racing.settle(racing.admit(RequestType.FRONT_DOOR, 900), 100); // 800 to give back, not sent yet
                CountDownLatch start = new CountDownLatch(1);
                try (ExecutorService both = Executors.newFixedThreadPool(2)) {
                    Future<?> timer = both.submit(() -> {
                        start.await();
                        racing.tick();
                        return null;
                    });
                    Future<TokenAllocation.Grant> call = both.submit(() -> {
                        start.await();
                        return racing.admit(RequestType.FRONT_DOOR, 800);
                    });
                    start.countDown();
                    timer.get(30, TimeUnit.SECONDS);
                    boolean admitted = call.get(30, TimeUnit.SECONDS) instanceof TokenAllocation.Grant.Admitted;
                    refused += admitted ? 0 : 1;
                    assertThat(windowInRedis(roundPrefix)).as("round %d: settled, whoever sent it", round)
                        .isEqualTo(admitted ? 900 : 100);
                }
            } finally {
                racing.close();
            }
        }
        assertThat(refused).as("calls refused on numbers about to be settled, in 40 rounds").isZero();
    }

    @Test
    void closingSendsWhatIsLeft() {
        allocation.settle(allocation.admit(RequestType.FRONT_DOOR, 500), 50);

        allocation.close();

        assertThat(windowInRedis()).isEqualTo(50);
    }

    @Test
    void frequentCallsOfATypeTakeTheirTokensFromOneReservationAheadAndTheRestGoesBack() {
        TokenAllocation big = new TokenAllocation(redisson, properties(1_000_000, prefix + "big:"), () -> 1, () -> 0,
            new SimpleMeterRegistry(), Duration.ofHours(1));
        try {
            for (int call = 0; call < 10; call++) {
                big.admit(RequestType.FRONT_DOOR, 100);
            }
            assertThat(windowInRedis(prefix + "big:")).as("no demand measured yet: one script per call").isEqualTo(1_000);
            big.tick(); // the interval ends: 1,000 tokens of front-door calls in it

            for (int call = 0; call < 10; call++) {
                assertThat(big.admit(RequestType.FRONT_DOOR, 100)).isInstanceOf(TokenAllocation.Grant.Admitted.class);
            }
            assertThat(windowInRedis(prefix + "big:")).as("one reservation of the last interval's 1,000 served all ten")
                .isEqualTo(2_000);
            big.admit(RequestType.FRONT_DOOR, 100); // a new reservation of 1,000, 900 of it unused
            assertThat(windowInRedis(prefix + "big:")).isEqualTo(3_000);

            big.tick();

            assertThat(windowInRedis(prefix + "big:")).as("what was not used went back at the tick").isEqualTo(2_100);
            assertThat(big.admit(RequestType.SUMMARY, 100)).as("another type has its own demand")
                .isInstanceOf(TokenAllocation.Grant.Admitted.class);
            assertThat(windowInRedis(prefix + "big:")).isEqualTo(2_200);
        } finally {
            big.close();
        }
    }

    @Test
    void callsThatFindTheReservationSpentTogetherShareTheNextOneInsteadOfEachReservingTheirOwn() throws Exception {
        TokenAllocation busy = new TokenAllocation(redisson, properties(1_000_000, prefix + "busy:"), () -> 1, () -> 0,
            new SimpleMeterRegistry(), Duration.ofHours(1));
        try {
            for (int call = 0; call < 10; call++) {
                busy.admit(RequestType.FRONT_DOOR, 100);
            }
            busy.tick(); // 1,000 tokens of front-door calls in the last interval: the next batches are of 1,000

            int calls = 50;
            CountDownLatch start = new CountDownLatch(1);
            List<Future<TokenAllocation.Grant>> grants = new ArrayList<>();
            try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int call = 0; call < calls; call++) {
                    grants.add(callers.submit(() -> {
                        start.await();
                        return busy.admit(RequestType.FRONT_DOOR, 100);
                    }));
                }
                start.countDown();
                for (Future<TokenAllocation.Grant> grant : grants) {
                    assertThat(grant.get(30, TimeUnit.SECONDS)).isInstanceOf(TokenAllocation.Grant.Admitted.class);
                }
            }

            assertThat(windowInRedis(prefix + "busy:"))
                .as("the first interval's 1,000, then five batches of 1,000 for fifty calls of 100 arriving at once")
                .isEqualTo(6_000);
        } finally {
            busy.close();
        }
    }

    @Test
    void aReservationAheadIsAtMostOnePercentOfTheBudgetAndNeverCausesARefusal() {
        TokenAllocation small = new TokenAllocation(redisson, properties(2_000, prefix + "small:"), () -> 1, () -> 0,
            new SimpleMeterRegistry(), Duration.ofHours(1));
        try {
            for (int call = 0; call < 19; call++) {
                small.admit(RequestType.FRONT_DOOR, 100);
            }
            small.tick();

            assertThat(small.admit(RequestType.FRONT_DOOR, 100)).as("the last 100 of 2,000 still fit")
                .isInstanceOf(TokenAllocation.Grant.Admitted.class);
            assertThat(windowInRedis(prefix + "small:")).isEqualTo(2_000);
        } finally {
            small.close();
        }
    }

    private long windowInRedis() {
        return windowInRedis(prefix);
    }

    private long windowInRedis(String prefix) {
        Map<String, String> fields = redisson.<String, String>getMap(prefix + "{window}", StringCodec.INSTANCE).readAllMap();
        return fields.values().stream().mapToLong(Long::parseLong).sum();
    }

    private AllocationProperties properties(long limit) {
        return properties(limit, prefix);
    }

    private static AllocationProperties properties(long limit, String prefix) {
        return new AllocationProperties(true, limit, 200_000, Duration.ofMinutes(1), 12, 0.6, 0.3,
            List.of("chat_answer", "intent", "front_door"), "light", 256, prefix, Duration.ofMillis(500));
    }

    private static RedissonClient redisson() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: this test needs a real Redis");
        }
        // single, Sentinel or Cluster, as the environment deploys SLUICE_REDIS_URL
        Config config = RedisTopology.ofUrl(url).toConfig(5000, 1000, 0);
        return Redisson.create(config);
    }
}
