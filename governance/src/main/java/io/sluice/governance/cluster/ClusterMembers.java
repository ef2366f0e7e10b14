package io.sluice.governance.cluster;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Which gateway instances are alive, by heartbeat in a Redis sorted set. The count is cached, so when
 * Redis is down each instance still knows how many shares to split a cluster limit into.
 */
public final class ClusterMembers implements AutoCloseable {

    private final RScoredSortedSet<String> members;
    private final RedisGuard guard;
    private final String id;
    private final long ttlMillis;
    private final ScheduledExecutorService heartbeat;
    private volatile int known = 1;

    public ClusterMembers(RedissonClient redisson, String keyPrefix, RedisGuard guard, Duration heartbeatEvery) {
        this.members = redisson.getScoredSortedSet(keyPrefix + "members", StringCodec.INSTANCE);
        this.guard = guard;
        this.id = UUID.randomUUID().toString();
        this.ttlMillis = heartbeatEvery.toMillis() * 3;
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-members");
            t.setDaemon(true);
            return t;
        });
        beat();
        heartbeat.scheduleWithFixedDelay(this::beat, heartbeatEvery.toMillis(), heartbeatEvery.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Live instances as last seen (at least 1: this one). */
    public int known() {
        return known;
    }

    public String id() {
        return id;
    }

    void beat() {
        try {
            guard.run(() -> {
                long now = System.currentTimeMillis();
                members.add(now, id);
                members.removeRangeByScore(0, true, now - ttlMillis, true);
                known = Math.max(1, members.size());
            }, () -> {
            });
        } catch (RuntimeException ignored) {
            // a heartbeat never kills its thread
        }
    }

    @Override
    public void close() {
        heartbeat.shutdownNow();
        try {
            guard.run(() -> members.remove(id), () -> {
            });
        } catch (RuntimeException ignored) {
            // best effort: the entry ages out anyway
        }
    }
}
