package io.sluice.api.ingress;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The cheap limiter in front of authentication: a small token bucket per source address, in process
 * memory (no Redis, no database), taken by every attempt that costs the server something before it knows
 * the caller: a bad API key, a console login. When an address's bucket is empty its next attempt is
 * refused at once (429) without a key lookup or a password hash. It also caps how many such requests one
 * address has in flight at once (a slow-body login holds a thread while it is read).
 *
 * <p>Written here rather than taken from a library: a bounded map of tiny buckets is a few lines, and it
 * must be callable from a servlet filter before any other machinery runs. Per instance: N instances let N×
 * through, which is fine for its job (it protects each instance's own threads and database connections).
 * Counter {@code sluice.ingress.preauth.refused}.
 */
public final class SourceAddressLimiter {

    private static final int MAX_ADDRESSES = 50_000;

    private final double capacity;
    private final double perNano;
    private final int maxInFlight;
    private final Counter refused;
    private final Map<String, Bucket> buckets = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > MAX_ADDRESSES;
        }
    };

    /**
     * @param capacity     attempts an address may make at once (burst)
     * @param refillEvery  one more attempt per this much time
     * @param maxInFlight  requests of one address guarded by {@link #enter} at the same time
     */
    public SourceAddressLimiter(int capacity, Duration refillEvery, int maxInFlight, MeterRegistry meters) {
        this.capacity = capacity;
        this.perNano = 1.0 / refillEvery.toNanos();
        this.maxInFlight = maxInFlight;
        this.refused = Counter.builder("sluice.ingress.preauth.refused")
            .description("requests refused before authentication: too many bad keys or logins from one address")
            .register(meters);
    }

    private static final class Bucket {
        double tokens;
        long at;
        final AtomicInteger inFlight = new AtomicInteger();

        Bucket(double tokens, long at) {
            this.tokens = tokens;
            this.at = at;
        }
    }

    /** Whether the address may make another attempt now (does not take one). */
    public boolean allowed(String address) {
        synchronized (buckets) {
            Bucket bucket = refill(address);
            boolean ok = bucket.tokens >= 1;
            if (!ok) {
                refused.increment();
            }
            return ok;
        }
    }

    /** Takes one attempt (a bad key, a login); false when the address had none left. */
    public boolean take(String address) {
        synchronized (buckets) {
            Bucket bucket = refill(address);
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return true;
            }
            refused.increment();
            return false;
        }
    }

    /** How long until the address has an attempt again. */
    public Duration retryAfter(String address) {
        synchronized (buckets) {
            Bucket bucket = refill(address);
            return bucket.tokens >= 1 ? Duration.ZERO : Duration.ofNanos((long) Math.ceil((1 - bucket.tokens) / perNano));
        }
    }

    /** Starts a guarded request of the address; false (and nothing to undo) when it has too many in flight. */
    public boolean enter(String address) {
        Bucket bucket;
        synchronized (buckets) {
            bucket = refill(address);
        }
        if (bucket.inFlight.incrementAndGet() > maxInFlight) {
            bucket.inFlight.decrementAndGet();
            refused.increment();
            return false;
        }
        return true;
    }

    /** Ends a request that {@link #enter} let in. */
    public void exit(String address) {
        synchronized (buckets) {
            Bucket bucket = buckets.get(address);
            if (bucket != null) {
                bucket.inFlight.decrementAndGet();
            }
        }
    }

    private Bucket refill(String address) {
        long now = System.nanoTime();
        Bucket bucket = buckets.get(address);
        if (bucket == null) {
            bucket = new Bucket(capacity, now);
            buckets.put(address, bucket);
            return bucket;
        }
        bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * perNano);
        bucket.at = now;
        return bucket;
    }
}
