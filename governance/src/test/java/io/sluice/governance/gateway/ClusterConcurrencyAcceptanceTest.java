package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.sluice.mock.Scenario;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Acceptance: cluster-wide permits keep a provider's concurrency cap across instances. */
class ClusterConcurrencyAcceptanceTest {

    private final GatewayFixture fixture = new GatewayFixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void sixtyFourCallersOnTwoInstancesNeverExceedTheProviderCapOfEight() throws Exception {
        GatewayFixture.LaneSettings lane = fixture.lane(Lane.INTERACTIVE);
        lane.permits = 8;
        lane.maxWait = Duration.ofSeconds(10);
        lane.budget = Duration.ofSeconds(20);
        fixture.mock.scenario(Scenario.healthy().withFixedLatency(25).withConcurrencyCap(8));
        List<LlmGateway> instances = List.of(fixture.instance().gateway(), fixture.instance().gateway());

        ExecutorService callers = Executors.newFixedThreadPool(64);
        List<Future<List<LlmOutcome>>> results = new ArrayList<>();
        try {
            for (int c = 0; c < 64; c++) {
                LlmGateway gateway = instances.get(c % 2);
                results.add(callers.submit(() -> {
                    List<LlmOutcome> outcomes = new ArrayList<>();
                    for (int i = 0; i < 2; i++) {
                        outcomes.add(gateway.call(GatewayFixture.ask(Lane.INTERACTIVE, "where is my parcel?", 16)));
                    }
                    return outcomes;
                }));
            }
            List<LlmOutcome> outcomes = new ArrayList<>();
            for (Future<List<LlmOutcome>> result : results) {
                outcomes.addAll(result.get());
            }

            assertThat(outcomes).hasSize(128).allSatisfy(outcome -> assertThat(outcome).isNotNull());
            assertThat(outcomes).filteredOn(LlmOutcome.Answered.class::isInstance).isNotEmpty();
            assertThat(fixture.mock.counters().maxConcurrentSeen()).isLessThanOrEqualTo(8);
            assertThat(fixture.mock.counters().rejected()).isZero();
        } finally {
            callers.shutdownNow();
        }
    }
}
