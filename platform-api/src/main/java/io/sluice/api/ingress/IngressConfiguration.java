package io.sluice.api.ingress;

import io.micrometer.core.instrument.MeterRegistry;

import org.redisson.api.RedissonClient;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({IngressProperties.class, RateLimitProperties.class})
public class IngressConfiguration {

    @Bean
    FilterRegistrationBean<RequestSizeLimitFilter> requestSizeLimitFilter(IngressProperties properties) {
        FilterRegistrationBean<RequestSizeLimitFilter> registration =
            new FilterRegistrationBean<>(new RequestSizeLimitFilter(properties.maxRequestBytes(), properties.maxUploadBytes()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    /** After the size limit (its body is bounded): NUL and other control characters are refused. */
    @Bean
    FilterRegistrationBean<ControlCharacterFilter> controlCharacterFilter(IngressProperties properties) {
        FilterRegistrationBean<ControlCharacterFilter> registration =
            new FilterRegistrationBean<>(new ControlCharacterFilter(properties.maxRequestBytes()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 11);
        return registration;
    }

    @Bean(destroyMethod = "close")
    UserLimits userLimits(RedissonClient redisson, RateLimitProperties properties) {
        return new UserLimits(redisson, properties.user());
    }

    @Bean
    UserTokenBucket userTokenBucket(RedissonClient redisson, RateLimitProperties properties, UserLimits limits,
            MeterRegistry meters) {
        return new UserTokenBucket(redisson, properties.user(), limits::current, meters);
    }

    /** How many gateway calls one end user's requests may cause per window (sluice.ingress.rate.llm-calls). */
    @Bean
    UserLlmCalls userLlmCalls(RedissonClient redisson, RateLimitProperties properties, MeterRegistry meters) {
        return new UserLlmCalls(redisson, properties.llmCalls(), properties.user().redisRetryAfter(), meters);
    }

    /** VIP end users of each client (table end_user_vip), re-read every few seconds. */
    @Bean
    EndUserVip endUserVip(org.springframework.jdbc.core.simple.JdbcClient jdbc) {
        return new EndUserVip(jdbc, java.time.Duration.ofSeconds(5));
    }

    @Bean(destroyMethod = "close")
    GlobalLimiter globalLimiter(RateLimitProperties properties, LoadMonitor load, RedissonClient redisson,
            org.springframework.beans.factory.ObjectProvider<io.sluice.api.admission.PriorityAdmission> admission,
            MeterRegistry meters) {
        RateLimitProperties.Global global = properties.global();
        // one rate for the cluster, in Redis; a Redis failure falls back to this instance's share for the user
        // buckets' retry interval
        io.sluice.governance.cluster.ClusterGlobalRate cluster = global.cluster() ? new io.sluice.governance.cluster.ClusterGlobalRate(redisson, global.keyPrefix(),
            new io.sluice.governance.cluster.RedisGuard(properties.user().redisRetryAfter()), global.tick().multipliedBy(3),
            global.lease())
            : null;
        java.util.function.IntSupplier queued = () -> {
            io.sluice.api.admission.PriorityAdmission a = admission.getIfAvailable();
            return a == null ? 0 : a.queueLength();
        };
        return new GlobalLimiter(global, properties.client(), load, queued, cluster, meters);
    }
}
