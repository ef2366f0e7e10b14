package io.sluice.api.auth;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AuthProperties.class)
public class AuthConfiguration {

    @Bean
    ApiKeys apiKeys(JdbcClient jdbc, AuthProperties properties) {
        return new ApiKeys(jdbc, properties.cacheTtl());
    }

    @Bean
    DemoClientBootstrap demoClientBootstrap(ApiKeys keys, AuthProperties properties, Environment env) {
        return new DemoClientBootstrap(keys, properties, env);
    }

    /** Before the size limit: a stranger's body is never looked at. */
    @Bean
    FilterRegistrationBean<ApiKeyFilter> apiKeyFilter(ApiKeys keys) {
        FilterRegistrationBean<ApiKeyFilter> registration = new FilterRegistrationBean<>(new ApiKeyFilter(keys));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
        return registration;
    }
}
