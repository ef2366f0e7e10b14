package io.sluice.batch.yield;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.sluice.batch.support.TestServices;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitLease;
import io.sluice.governance.permit.PermitProperties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Yielding against the gateway's real cluster-wide permits in Redis: when online chat holds most
 * interactive permits, the batch lane's limit drops to its floor; when they are released it grows back.
 */
class PermitOccupancyYieldTest {

    static RedissonClient redisson;

    @BeforeAll
    static void connect() {
        URI uri = URI.create(TestServices.redisUrl());
        Config config = new Config();
        String db = uri.getPath() == null || uri.getPath().length() <= 1 ? "0" : uri.getPath().substring(1);
        config.useSingleServer().setAddress("redis://" + uri.getHost() + ":" + uri.getPort())
            .setDatabase(Integer.parseInt(db));
        redisson = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        if (redisson != null) {
            redisson.shutdown();
        }
    }

    @Test
    void batchLaneDropsToItsFloorWhileInteractivePermitsAreBusyAndRecoversAfter() {
        String prefix = "sluice:test:batch-yield:" + UUID.randomUUID() + ":";
        PermitProperties properties = new PermitProperties(prefix, Map.of(
            "interactive", new PermitProperties.Lane(8, Duration.ofMillis(50), Duration.ofSeconds(30))));
        ClusterPermits permits = new ClusterPermits(redisson, properties);
        PermitOccupancy occupancy = new PermitOccupancy(permits);
        BatchLaneThrottle throttle = new BatchLaneThrottle(1, 8, 0.85, 0.5);
        ThrottleSampler sampler = new ThrottleSampler(throttle, occupancy, Duration.ofMillis(100));
        List<PermitLease> online = new ArrayList<>();
        sampler.start();
        try {
            assertThat(occupancy.occupancy()).isZero();
            for (int i = 0; i < 7; i++) { // 7 of 8: 87.5 % > 85 %
                online.add(permits.acquire("interactive"));
            }
            assertThat(occupancy.occupancy()).isEqualTo(0.875);
            await().atMost(Duration.ofSeconds(5)).until(() -> throttle.limit() == throttle.floor());

            online.forEach(PermitLease::close);
            await().atMost(Duration.ofSeconds(10)).until(() -> throttle.limit() == throttle.ceiling());
        } finally {
            sampler.stop();
            online.forEach(PermitLease::close);
            redisson.getKeys().deleteByPattern(prefix + "*");
        }
    }
}
