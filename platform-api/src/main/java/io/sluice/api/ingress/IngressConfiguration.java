package io.sluice.api.ingress;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IngressProperties.class)
public class IngressConfiguration {

    @Bean
    FilterRegistrationBean<RequestSizeLimitFilter> requestSizeLimitFilter(IngressProperties properties) {
        FilterRegistrationBean<RequestSizeLimitFilter> registration =
            new FilterRegistrationBean<>(new RequestSizeLimitFilter(properties.maxRequestBytes()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }
}
