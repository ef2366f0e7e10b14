package io.sluice.governance.cluster;

import java.util.Optional;
import java.util.function.Consumer;

import org.redisson.api.RBucket;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One operator-set value shared by the cluster (Sentinel rules, user limits): stored in
 * Redis (an instance that starts later reads it) and announced on a topic (running instances apply it
 * at once). The owner validates and applies the value; this only carries it.
 */
public final class SharedSetting implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SharedSetting.class);

    private final String key;
    private final RBucket<String> stored;
    private final RTopic topic;
    private final RedisGuard guard;
    private int listenerId = -1;

    /** @param onChange told every value announced by any instance (this one included) */
    public SharedSetting(RedissonClient redisson, String key, RedisGuard guard, Consumer<String> onChange) {
        this.key = key;
        this.stored = redisson.getBucket(key, StringCodec.INSTANCE);
        this.topic = redisson.getTopic(key + ":changed", StringCodec.INSTANCE);
        this.guard = guard;
        guard.run(() -> listenerId = topic.addListener(String.class, (channel, value) -> onChange.accept(value)), () -> {
        });
    }

    /** The value the cluster holds (empty when none was set, or Redis is unreachable). */
    public Optional<String> stored() {
        return guard.call(() -> Optional.ofNullable(stored.get()), Optional::empty);
    }

    /** Stores and announces a value (null = remove it); false when Redis was unreachable (this instance only). */
    public boolean publish(String value) {
        return guard.call(() -> {
            if (value == null) {
                stored.delete();
            } else {
                stored.set(value);
            }
            topic.publish(value == null ? "" : value);
            return true;
        }, () -> {
            log.warn("redis unreachable: setting {} changed on this instance only", key);
            return false;
        });
    }

    @Override
    public void close() {
        if (listenerId >= 0) {
            guard.run(() -> topic.removeListener(listenerId), () -> {
            });
        }
    }
}
