package io.sluice.app.security;

import org.apache.catalina.core.StandardHost;
import org.apache.coyote.http11.AbstractHttp11Protocol;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The HTTP server's protection against slow and malformed clients (issue 14, M1), whatever the thread
 * model: Tomcat reads request lines and headers without holding a thread and gives up after
 * {@code server.tomcat.connection-timeout}; a body waits at most {@code sluice.server.upload-read-timeout}
 * for its next bytes (Tomcat's upload timeout) and must keep the minimum data rate
 * ({@link SlowBodyGuardFilter}); errors Tomcat answers itself are problem+json on API paths
 * ({@link ApiErrorReportValve}). Health and metrics live on the separate management port, so probes answer
 * even while the main connector is busy.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ServerHardeningProperties.class)
class ServerHardeningConfiguration {

    @Bean
    TomcatConnectorCustomizer connectorCustomizer(ServerHardeningProperties properties) {
        return connector -> {
            if (connector.getProtocolHandler() instanceof AbstractHttp11Protocol<?> http) {
                http.setDisableUploadTimeout(false);
                http.setConnectionUploadTimeout((int) properties.uploadReadTimeout().toMillis());
            }
            if (properties.directSocketBuffers() && !connector.setProperty("socket.directBuffer", "true")) {
                throw new IllegalStateException("Tomcat's connector took no socket.directBuffer");
            }
        };
    }

    @Bean
    TomcatContextCustomizer apiErrorReportValve() {
        return context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ApiErrorReportValve.class.getName());
            }
            context.getPipeline().addValve(new CloseUnreadValve());
        };
    }

    /** After the login guard and the API key check (strangers' bodies are never read), before any body read. */
    @Bean
    FilterRegistrationBean<SlowBodyGuardFilter> slowBodyGuardFilter(ServerHardeningProperties properties) {
        FilterRegistrationBean<SlowBodyGuardFilter> registration = new FilterRegistrationBean<>(new SlowBodyGuardFilter(properties));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 6);
        return registration;
    }
}
