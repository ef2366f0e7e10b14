package io.sluice.console;

import io.sluice.api.ApiPaths;
import java.io.IOException;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.resource.ResourceUrlEncodingFilter;

/**
 * The console's versioned resource links (Thymeleaf's {@code @{/webjars/...}}) need Spring's
 * {@link ResourceUrlEncodingFilter}; the machine endpoints do not. Spring Boot registers it for every request, where it
 * wrapped each API call's request and response, and every attribute, header and status set on them went through its
 * wrappers. This registration (which replaces Boot's) leaves {@code /api/**}, {@code /v1/**} and {@code /actuator/**}
 * out.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleResourceUrlsConfiguration {

    @Bean
    FilterRegistrationBean<ResourceUrlEncodingFilter> resourceUrlEncodingFilter() {
        FilterRegistrationBean<ResourceUrlEncodingFilter> registration =
            new FilterRegistrationBean<>(new ConsolePagesOnly());
        registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ERROR);
        return registration;
    }

    /** Resource URL encoding for everything but the machine endpoints. */
    static final class ConsolePagesOnly extends ResourceUrlEncodingFilter {

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            if (request instanceof HttpServletRequest http && machineEndpoint(http.getRequestURI())) {
                chain.doFilter(request, response);
                return;
            }
            super.doFilter(request, response, chain);
        }

        static boolean machineEndpoint(String path) {
            return ApiPaths.machine(path);
        }
    }
}
