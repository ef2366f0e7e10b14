package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import redis.embedded.RedisServer;

/**
 * Acceptance: the provider's tokens-per-minute budget holds across instances, and with Redis gone
 * each instance keeps to its share. The window is configurable: one test runs the real minute (a
 * window and a quarter of load, so the log slides); the others use 3 s windows (same script, same
 * arithmetic) so they finish in seconds.
 */
class TokenBudgetAcceptanceTest {

    private static final Duration WINDOW = Duration.ofSeconds(3);
    private static final int MAX_TOKENS = 400;
    /** 400 characters: the gateway estimates 100 + 4 prompt tokens, the mock counts 100. */
    private static final String PROMPT = "x".repeat(400);
    private static final int ESTIMATE = 104 + MAX_TOKENS;

    private final GatewayFixture fixture = new GatewayFixture();
    private RedisServer throwawayRedis;

    @AfterEach
    void close() throws IOException {
        fixture.close();
        if (throwawayRedis != null && throwawayRedis.isActive()) {
            throwawayRedis.stop();
        }
    }

    @Test
    void twoInstancesSpendNoMoreThanTheClusterBudgetInAnyWindow() throws Exception {
        fixture.tpmLimit = 20_000;
        fixture.tpmWindow = WINDOW;
        fixture.mock.scenario(Scenario.healthy().withCompletionTokens(MAX_TOKENS));
        List<GatewayFixture.Instance> instances = List.of(fixture.instance(), fixture.instance());

        Load load = hammer(instances, Duration.ofMillis(7_000));

        assertThat(fixture.mock.maxTokensInAnyWindow(WINDOW.toMillis())).isLessThanOrEqualTo(20_000 + ESTIMATE);
        assertThat(fixture.mock.counters().tokens()).as("callers asked for far more than one window").isGreaterThan(20_000);
        assertThat(load.saturated.get()).isPositive();
        assertThat(fixture.mock.counters().rejected()).isZero();
    }

    @Test
    void twoInstancesSpendNoMoreThanTwentyThousandTokensInAnyRealMinute() throws Exception {
        Duration minute = Duration.ofMinutes(1);
        fixture.tpmLimit = 20_000;
        fixture.tpmWindow = minute;
        fixture.mock.scenario(Scenario.healthy().withCompletionTokens(MAX_TOKENS));
        List<GatewayFixture.Instance> instances = List.of(fixture.instance(), fixture.instance());

        Load load = hammer(instances, Duration.ofSeconds(75));

        long busiestMinute = fixture.mock.maxTokensInAnyWindow(minute.toMillis());
        System.out.printf("TPM over a real minute: mock counted %d tokens in total, at most %d in any minute; %d answered, %d refused%n",
            fixture.mock.counters().tokens(), busiestMinute, load.answered.get(), load.saturated.get());
        assertThat(busiestMinute).isLessThanOrEqualTo(20_000 + ESTIMATE);
        assertThat(fixture.mock.counters().tokens()).as("the second window admitted more as the first slid out")
            .isGreaterThan(20_000 + ESTIMATE);
        assertThat(fixture.mock.counters().rejected()).isZero();
    }

    @Test
    void withRedisStoppedEachInstanceKeepsToItsShareAndCallsStillFlow() throws Exception {
        throwawayRedis = RedisServer.newRedisServer().port(freePort()).bind("127.0.0.1")
            .setting("save \"\"").setting("appendonly no").build();
        throwawayRedis.start();
        fixture.redisUrl = "redis://127.0.0.1:" + throwawayRedis.ports().get(0);
        fixture.tpmLimit = 4_000;
        fixture.tpmWindow = WINDOW;
        fixture.mock.scenario(Scenario.healthy().withCompletionTokens(MAX_TOKENS));
        List<GatewayFixture.Instance> instances = List.of(fixture.instance(), fixture.instance());
        await().atMost(Duration.ofSeconds(5)).until(() -> instances.stream().allMatch(i -> i.assembly().members().known() == 2));

        throwawayRedis.stop();
        hammer(instances, WINDOW); // the switch-over window: what Redis had admitted still counts there
        fixture.mock.reset();
        Load load = hammer(instances, Duration.ofMillis(7_000));

        assertThat(load.answered.get()).as("calls still flow without Redis").isPositive();
        assertThat(fixture.mock.maxTokensInAnyWindow(WINDOW.toMillis()))
            .as("two shares of 2 000 tokens").isLessThanOrEqualTo(4_000 + ESTIMATE);
    }

    private record Load(AtomicInteger answered, AtomicInteger saturated) {
    }

    private static Load hammer(List<GatewayFixture.Instance> instances, Duration duration) throws Exception {
        Load load = new Load(new AtomicInteger(), new AtomicInteger());
        ExecutorService callers = Executors.newFixedThreadPool(8);
        long end = System.nanoTime() + duration.toNanos();
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            LlmGateway gateway = instances.get(c % instances.size()).gateway();
            running.add(callers.submit(() -> {
                while (System.nanoTime() < end) {
                    LlmOutcome outcome = gateway.call(GatewayFixture.ask(Lane.INTERACTIVE, PROMPT, MAX_TOKENS));
                    if (outcome instanceof LlmOutcome.Answered) {
                        load.answered.incrementAndGet();
                    } else {
                        load.saturated.incrementAndGet();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // a caller's pacing, not a test wait
                    }
                }
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        callers.shutdownNow();
        return load;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
