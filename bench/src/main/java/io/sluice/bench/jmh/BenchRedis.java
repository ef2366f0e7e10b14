package io.sluice.bench.jmh;

import java.util.UUID;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** A Redisson client on {@code SLUICE_REDIS_URL} and a fresh key prefix, for the Redis benchmarks. */
final class BenchRedis implements AutoCloseable {

    private final RedissonClient client;
    private final String prefix;

    BenchRedis(String area) {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("the Redis benchmarks need SLUICE_REDIS_URL (e.g. redis://127.0.0.1:6379)");
        }
        Config config = new Config();
        config.useSingleServer().setAddress(url);
        this.client = Redisson.create(config);
        // a fresh prefix per fork: no leftovers of an earlier run change what is measured
        this.prefix = "bench:jmh:" + area + ":" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }

    RedissonClient client() {
        return client;
    }

    String prefix() {
        return prefix;
    }

    /** Deletes this run's keys and shuts the client down. */
    @Override
    public void close() {
        try {
            client.getKeys().deleteByPattern(prefix + "*");
        } finally {
            client.shutdown();
        }
    }
}
