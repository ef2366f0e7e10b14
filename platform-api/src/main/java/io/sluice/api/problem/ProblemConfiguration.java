package io.sluice.api.problem;

import jakarta.servlet.DispatcherType;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

@Configuration(proxyBeanMethods = false)
public class ProblemConfiguration {

    /** First in the error dispatch, so no default error page is rendered for API paths. */
    @Bean
    FilterRegistrationBean<ApiErrorDispatchFilter> apiErrorDispatchFilter() {
        FilterRegistrationBean<ApiErrorDispatchFilter> registration = new FilterRegistrationBean<>(new ApiErrorDispatchFilter());
        registration.setDispatcherTypes(DispatcherType.ERROR);
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
