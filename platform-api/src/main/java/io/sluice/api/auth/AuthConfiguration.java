package io.sluice.api.auth;

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;

import io.sluice.api.ApiPaths;
import io.sluice.api.ingress.SourceAddressLimiter;
import io.sluice.web.audit.AuditTrail;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AuthProperties.class)
public class AuthConfiguration {

    @Bean
    ApiKeys apiKeys(JdbcClient jdbc, AuthProperties properties) {
        return new ApiKeys(jdbc, properties.cacheTtl());
    }

    @Bean
    ClientAdministration clientAdministration(ApiKeys keys) {
        return new ClientAdministration(keys);
    }

    /** The one audit writer: the console and the API both record through it. */
    @Bean
    AuditTrail auditTrail(JdbcClient jdbc) {
        return new AuditTrail(jdbc);
    }

    /** Bad API keys and console logins per source address, before any lookup (shared by both). */
    @Bean
    SourceAddressLimiter preAuthLimiter(AuthProperties properties, MeterRegistry meters) {
        AuthProperties.PreAuth p = properties.preAuth();
        return new SourceAddressLimiter(p.attempts(), p.refillEvery(), p.maxInFlight(), meters);
    }

    @Bean
    DemoClientBootstrap demoClientBootstrap(ApiKeys keys, AuthProperties properties, Environment env) {
        return new DemoClientBootstrap(keys, properties, env);
    }

    /** Before the size limit: a stranger's body is never looked at. */
    @Bean
    FilterRegistrationBean<ApiKeyFilter> apiKeyFilter(ApiKeys keys, SourceAddressLimiter preAuthLimiter) {
        FilterRegistrationBean<ApiKeyFilter> registration =
            new FilterRegistrationBean<>(new ApiKeyFilter(keys, preAuthLimiter));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
        return registration;
    }

    /** Every successful state change through the API gets an audit entry (actor = the client). */
    @Bean
    WebMvcConfigurer apiAudit(AuditTrail audit) {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(new ApiAuditInterceptor(audit)).addPathPatterns(ApiPaths.API_PATTERNS);
            }
        };
    }

    /** An endpoint's {@link ApiClient} parameter is the caller the API-key filter authenticated. */
    @Bean
    WebMvcConfigurer apiClientParameters() {
        return new WebMvcConfigurer() {
            @Override
            public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
                resolvers.add(new ApiClientArgumentResolver());
            }
        };
    }
}
