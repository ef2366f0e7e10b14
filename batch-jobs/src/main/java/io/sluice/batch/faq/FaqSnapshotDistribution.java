package io.sluice.batch.faq;

import java.util.Optional;

import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;

import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Puts a FAQ snapshot in service on every instance: the bytes go to PostgreSQL with the cluster's
 * current version, then the version is announced on a Redis topic; every instance (this one included)
 * loads it from the database and swaps it in atomically ({@link FaqSnapshotService#install}, which
 * verifies the checksum and validates again). An instance that missed announcements (down, Redis
 * unreachable) catches up to the current version when it starts. Without Redis only this instance swaps.
 */
public class FaqSnapshotDistribution implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(FaqSnapshotDistribution.class);

    private final FaqSnapshotService snapshots;
    private final FaqSnapshotStore store;
    private final RTopic topic;
    private final int keepVersions;
    private volatile int listenerId = -1;
    private volatile boolean running;

    /** @param redisson null = single instance (no announcement) */
    public FaqSnapshotDistribution(FaqSnapshotService snapshots, FaqSnapshotStore store, RedissonClient redisson,
            String channel, int keepVersions) {
        this.snapshots = snapshots;
        this.store = store;
        this.topic = redisson == null ? null : redisson.getTopic(channel, StringCodec.INSTANCE);
        this.keepVersions = keepVersions;
    }

    /** Stores a validated snapshot as the cluster's current version and announces it. */
    public void publish(FaqSnapshot snapshot, double selfHitRate) {
        store.saveAsCurrent(snapshot.version(), FaqSnapshotService.encode(snapshot), snapshot.size(),
            snapshot.checksum(), selfHitRate);
        int pruned = store.prune(keepVersions);
        log.info("FAQ snapshot v{} stored as current ({} old versions pruned); announcing", snapshot.version(), pruned);
        load(snapshot.version());
        announce(snapshot.version());
    }

    /** Makes a kept version current on every instance again. */
    public FaqSnapshot rollback(long version) {
        byte[] bytes = store.content(version).orElseThrow(() ->
            new IllegalArgumentException("no kept FAQ snapshot v" + version));
        FaqSnapshot installed = snapshots.install(bytes); // validates here first: a bad version is not announced
        store.setCurrent(version);
        log.info("FAQ snapshot rolled back to v{}; announcing", version);
        announce(version);
        return installed;
    }

    /** Loads the version from the database and swaps it in here (no-op when it is already current). */
    public synchronized void load(long version) {
        if (snapshots.current().version() == version) {
            return;
        }
        Optional<byte[]> bytes = store.content(version);
        if (bytes.isEmpty()) {
            log.warn("FAQ snapshot v{} was announced but is not in the database", version);
            return;
        }
        try {
            snapshots.install(bytes.get());
            log.info("FAQ snapshot v{} installed", version);
        } catch (RuntimeException e) {
            // the old snapshot keeps answering
            log.error("FAQ snapshot v{} could not be installed here: {}", version, e.getMessage());
        }
    }

    private void announce(long version) {
        if (topic == null) {
            return;
        }
        try {
            topic.publish(Long.toString(version));
        } catch (RuntimeException e) {
            log.warn("could not announce FAQ snapshot v{} (instances catch up at start): {}", version, e.toString());
        }
    }

    @Override
    public void start() {
        running = true;
        if (topic != null) {
            listenerId = topic.addListener(String.class, (channel, message) -> {
                try {
                    load(Long.parseLong(message.trim()));
                } catch (NumberFormatException e) {
                    log.warn("ignoring FAQ snapshot announcement '{}'", message);
                }
            });
        }
        try {
            store.current().ifPresent(this::load);
        } catch (RuntimeException e) {
            log.warn("cannot read the cluster's current FAQ snapshot (keeping the local one): {}", e.toString());
        }
    }

    @Override
    public void stop() {
        running = false;
        if (topic != null && listenerId >= 0) {
            topic.removeListener(listenerId);
            listenerId = -1;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
