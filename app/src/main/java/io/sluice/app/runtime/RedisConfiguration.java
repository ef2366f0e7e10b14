package io.sluice.app.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
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

/** The one Redisson client: external Redis when a URL is configured, an embedded redis-server otherwise. */
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
    RedissonClient embeddedRedisson(EmbeddedRedis redis) {
        return redisson("redis://127.0.0.1:" + redis.port());
    }

    @Bean(destroyMethod = "shutdown")
    @Conditional(ExternalRedisCondition.class)
    RedissonClient externalRedisson(Environment env) {
        String url = ServiceUrls.redis(env);
        log.info("redis: external at {}", url.replaceAll("//[^@/]*@", "//***@"));
        return redisson(url);
    }

    static RedissonClient redisson(String url) {
        Config config = new Config();
        config.useSingleServer()
            .setAddress(url)
            .setConnectTimeout(2_000)
            .setTimeout(2_000)
            .setRetryAttempts(1);
        return Redisson.create(config);
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
            return ServiceUrls.redis(context.getEnvironment()) != null;
        }
    }

    static class EmbeddedRedisCondition implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return ServiceUrls.redis(context.getEnvironment()) == null;
        }
    }
}
