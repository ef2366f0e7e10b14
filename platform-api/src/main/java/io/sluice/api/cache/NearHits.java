package io.sluice.api.cache;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.api.listener.StatusListener;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exact hits this instance serves again without a Redis round trip. Redis stays the truth: a hit is trusted here
 * for at most {@code maxAge} after Redis last named it, and only while the instance listens on the cache's change
 * channel. Every script that changes what a question resolves to publishes there in the same step (a store over
 * an existing question, an alias over an alias, a drop), so a change made on any instance reaches every other at
 * once; the age bounds what a lost message, or a change made outside Sluice, can cost.
 *
 * <p>A message names the key space, the question's hash and, when an entry went away, its id: the question goes,
 * and so does every question here that an L2 hit pointed at the same entry. Entries Redis evicts for room (the
 * oldest beyond {@code max-entries}) are not announced: they are still right answers, served here until the age
 * runs out.
 */
final class NearHits {

    private static final Logger log = LoggerFactory.getLogger(NearHits.class);
    private static final int MAX_HELD = 4096;
    private static final long RETRY_SUBSCRIBE_NANOS = 10_000_000_000L;

    /** An entry Redis named for a question, with the similarity it was served at and when Redis named it. */
    record Near(CacheEntry entry, double similarity, long confirmedNanos) {
    }

    private final Map<String, Near> held = new ConcurrentHashMap<>();
    // bumped before each change is applied: a confirmation that raced a change is not kept
    private final AtomicLong changes = new AtomicLong();
    private final long maxAgeNanos;
    private final LongSupplier nanos;
    private final RTopic topic;
    private final Counter served;
    private volatile boolean listening;
    private volatile long lastSubscribeNanos;

    NearHits(RedissonClient redisson, String channel, Duration maxAge, MeterRegistry meters) {
        this(redisson, channel, maxAge, meters, System::nanoTime);
    }

    NearHits(RedissonClient redisson, String channel, Duration maxAge, MeterRegistry meters, LongSupplier nanos) {
        this.maxAgeNanos = maxAge.toNanos();
        this.nanos = nanos;
        this.topic = maxAgeNanos > 0 ? redisson.getTopic(channel, StringCodec.INSTANCE) : null;
        this.served = Counter.builder("sluice.cache.l1.near")
            .description("exact hits served again without a Redis round trip").register(meters);
        Gauge.builder("sluice.cache.l1.near.held", held, Map::size)
            .description("exact hits this instance may serve again without asking Redis").register(meters);
        if (topic != null) {
            topic.addListenerAsync(new StatusListener() {
                @Override
                public void onSubscribe(String name) {
                    held.clear();
                    listening = true;
                }

                @Override
                public void onUnsubscribe(String name) {
                    listening = false;
                    held.clear();
                }
            });
            subscribe();
        }
    }

    private void subscribe() {
        lastSubscribeNanos = nanos.getAsLong();
        topic.addListenerAsync(String.class, (channel, message) -> changed(message)).whenComplete((id, failure) -> {
            if (failure == null) {
                listening = true;
            } else {
                log.warn("semantic cache: not listening for changes ({}); every exact hit asks Redis", failure.toString());
            }
        });
    }

    /** Whether the change channel is subscribed: before that (and while Redis is away) every lookup asks Redis. */
    boolean listening() {
        return listening;
    }

    /** How many changes this instance has seen; read before the round trip whose answer is then confirmed. */
    long changes() {
        return changes.get();
    }

    /** The hit Redis named for this question within the age, or null: then ask Redis. */
    Near get(String key) {
        if (!listening) {
            if (topic != null && nanos.getAsLong() - lastSubscribeNanos > RETRY_SUBSCRIBE_NANOS) {
                subscribe();
            }
            return null;
        }
        Near near = held.get(key);
        if (near == null) {
            return null;
        }
        if (nanos.getAsLong() - near.confirmedNanos() > maxAgeNanos) {
            held.remove(key, near);
            return null;
        }
        served.increment();
        return near;
    }

    /** Redis just named {@code entry} for the question; kept unless a change arrived since {@code changesBefore}. */
    void confirm(String key, CacheEntry entry, double similarity, long changesBefore) {
        if (!listening) {
            return;
        }
        if (held.size() >= MAX_HELD) {
            held.clear();
        }
        held.put(key, new Near(entry, similarity, nanos.getAsLong()));
        if (changes.get() != changesBefore) {
            held.remove(key);
        }
    }

    /** A change message from the channel: {@code space \t hash \t id}, the id empty when no entry went away. */
    void changed(String message) {
        String[] parts = message.split("\t", -1);
        if (parts.length < 2) {
            changes.incrementAndGet();
            held.clear();
            return;
        }
        changed(parts[0], parts[1], parts.length > 2 ? parts[2] : "");
    }

    /** A change to what {@code hash} resolves to in {@code space}; {@code gone} the entry that went away, or empty. */
    void changed(String space, String hash, String gone) {
        changes.incrementAndGet();
        held.remove(space + hash);
        String id = entryId(gone);
        if (!id.isEmpty()) {
            // questions an L2 hit pointed at the same entry; drops are rare next to lookups
            held.entrySet().removeIf(e -> e.getValue().entry().id().equals(id) && e.getKey().startsWith(space));
        }
    }

    /** An exact index value is an id, or {@code id~similarity} for a question an L2 hit answered. */
    private static String entryId(String value) {
        int sep = value.indexOf('~');
        return sep < 0 ? value : value.substring(0, sep);
    }
}
