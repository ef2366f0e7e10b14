package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.sluice.governance.gateway.LlmOutcome.Reason;
import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Acceptance: a stream holds its permit for its life and gives it back exactly once, however it ends. */
class StreamingAcceptanceTest {

    private final GatewayFixture fixture = new GatewayFixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void aHundredStreamsHalfCancelledMidwayReturnEveryPermit() {
        GatewayFixture.LaneSettings lane = fixture.lane(Lane.INTERACTIVE);
        lane.permits = 16;
        lane.maxWait = Duration.ofSeconds(30);
        lane.budget = Duration.ofSeconds(10);
        fixture.mock.scenario(Scenario.healthy().withCompletionTokens(12).withInterTokenDelay(15));
        GatewayFixture.Instance instance = fixture.instance();

        List<Recorder> recorders = new ArrayList<>();
        ExecutorService starters = Executors.newFixedThreadPool(32);
        try {
            for (int i = 0; i < 100; i++) {
                Recorder recorder = new Recorder(i % 2 == 0);
                recorders.add(recorder);
                starters.submit(() -> recorder.stream.complete(
                    instance.gateway().stream(GatewayFixture.ask(Lane.INTERACTIVE, "tell me a story", 64), recorder)));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> recorders.stream().allMatch(r -> r.ends.get() > 0));
        } finally {
            starters.shutdownNow();
        }

        assertThat(recorders).allSatisfy(r -> assertThat(r.ends.get()).as("exactly one terminal event").isEqualTo(1));
        assertThat(recorders).filteredOn(r -> r.cancelMidway)
            .allSatisfy(r -> assertThat(r.outcome.get()).isInstanceOf(LlmOutcome.Degraded.class));
        assertThat(recorders).filteredOn(r -> !r.cancelMidway)
            .allSatisfy(r -> assertThat(r.outcome.get()).isInstanceOf(LlmOutcome.Answered.class));
        await().atMost(Duration.ofSeconds(5)).until(() -> instance.assembly().permits().inUse("interactive") == 0);
    }

    @Test
    void aStreamTheProviderCutsMidwayEndsWithAnErrorNotACleanEnd() {
        fixture.mock.scenario(Scenario.healthy().withCompletionTokens(10).withCutStreamAfter(3));
        GatewayFixture.Instance instance = fixture.instance();
        Recorder recorder = new Recorder(false);

        recorder.stream.complete(instance.gateway().stream(GatewayFixture.ask(Lane.INTERACTIVE, "hi", 32), recorder));
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.ends.get() > 0);

        assertThat(recorder.outcome.get()).isInstanceOfSatisfying(LlmOutcome.Degraded.class, degraded -> {
            assertThat(degraded.reason()).isEqualTo(Reason.PROVIDER_ERROR);
            assertThat(degraded.detail()).contains("cut");
        });
        assertThat(recorder.tokens.get()).isEqualTo(3);
        await().atMost(Duration.ofSeconds(5)).until(() -> instance.assembly().permits().inUse("interactive") == 0);
    }

    @Test
    void withoutAProviderAStreamEndsAtOnceNotConfigured() {
        Recorder recorder = new Recorder(false);

        new DisabledLlmGateway().stream(GatewayFixture.ask(Lane.INTERACTIVE, "hi", 32), recorder);

        assertThat(recorder.outcome.get()).isInstanceOfSatisfying(LlmOutcome.Degraded.class,
            degraded -> assertThat(degraded.reason()).isEqualTo(Reason.NOT_CONFIGURED));
    }

    /** Records a stream's events; cancels after the third token when told to. */
    private static final class Recorder implements LlmStreamListener {
        final boolean cancelMidway;
        final CompletableFuture<LlmStream> stream = new CompletableFuture<>();
        final AtomicInteger tokens = new AtomicInteger();
        final AtomicInteger ends = new AtomicInteger();
        final AtomicReference<LlmOutcome> outcome = new AtomicReference<>();

        Recorder(boolean cancelMidway) {
            this.cancelMidway = cancelMidway;
        }

        @Override
        public void onToken(String token) {
            if (tokens.incrementAndGet() == 3 && cancelMidway) {
                stream.thenAccept(LlmStream::cancel); // the client goes away midway
            }
        }

        @Override
        public void onComplete(LlmOutcome.Answered answered) {
            outcome.set(answered);
            ends.incrementAndGet();
        }

        @Override
        public void onEnd(LlmOutcome ended) {
            outcome.set(ended);
            ends.incrementAndGet();
        }
    }
}
