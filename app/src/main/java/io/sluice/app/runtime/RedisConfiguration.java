package io.sluice.app.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import io.sluice.governance.cluster.RedisTopology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

import redis.embedded.RedisServer;

/**
 * The one Redisson client: external Redis (single node, Sentinel or Cluster, see {@link RedisTopology}) when
 * configured, an embedded redis-server otherwise.
 */
@Configuration(proxyBeanMethods = false)
public class RedisConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RedisConfiguration.class);

    /** An embedded redis-server (binary shipped in a Maven jar) on a port of its own, loopback only. */
    public record EmbeddedRedis(RedisServer server, int port) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            server.stop();
        }
    }

    @Bean(destroyMethod = "close")
    @Conditional(EmbeddedRedisCondition.class)
    EmbeddedRedis embeddedRedis(RuntimeProperties properties) throws IOException {
        int port = properties.embedded().redisPort() > 0 ? properties.embedded().redisPort() : freePort();
        RedisServer server = RedisServer.newRedisServer()
            .port(port)
            .bind("127.0.0.1")
            .setting("save \"\"")
            .setting("appendonly no")
            .build();
        server.start();
        log.info("redis: embedded redis-server on 127.0.0.1:{}", port);
        return new EmbeddedRedis(server, port);
    }

    @Bean(destroyMethod = "shutdown")
    @Conditional(EmbeddedRedisCondition.class)
    RedissonClient embeddedRedisson(EmbeddedRedis redis, Environment env) {
        return client(RedisTopology.single("redis://127.0.0.1:" + redis.port()), env);
    }

    @Bean(destroyMethod = "shutdown")
    @Conditional(ExternalRedisCondition.class)
    RedissonClient externalRedisson(Environment env) {
        RedisTopology topology = RedisTopology.resolve(env::getProperty);
        log.info("redis: external, {}", topology.describe());
        return client(topology, env);
    }

    /** The one way a client is made: 2 s to connect and per command, one retry, threads sized to the machine. */
    private static RedissonClient client(RedisTopology topology, Environment env) {
        return Redisson.create(sized(topology.toConfig(2_000, 2_000, 1), env));
    }

    /**
     * The client's threads sized to this machine ({@code sluice.redis.event-loop-threads}, 0 = two per core, at
     * least 4). Redisson's defaults (32 Netty event loops, 16 listener threads) suit a large server; on a small one
     * each Redis reply wakes a thread of its own, so a request's several round trips cost context switches and
     * per-thread buffer caches instead of being handled together.
     */
    static Config sized(Config config, Environment env) {
        int configured = env.getProperty("sluice.redis.event-loop-threads", Integer.class, 0);
        if (configured < 0) {
            throw new IllegalArgumentException("sluice.redis.event-loop-threads must be 0 (two per core) or more, was "
                + configured);
        }
        int threads = configured > 0 ? configured : Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        return config.setNettyThreads(threads).setThreads(threads);
    }

    /** The configured topology (validated: a contradiction fails start-up here), null = embedded. */
    static RedisTopology topology(Environment env) {
        return RedisTopology.resolve(env::getProperty);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static class ExternalRedisCondition implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return topology(context.getEnvironment()) != null;
        }
    }

    static class EmbeddedRedisCondition implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return topology(context.getEnvironment()) == null;
        }
    }
}
