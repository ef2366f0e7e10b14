package io.sluice.governance.permit;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Binds {@code sluice.permits.*}; the {@link ClusterPermits} bean comes from the gateway assembly. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PermitProperties.class)
public class PermitConfiguration {
}
