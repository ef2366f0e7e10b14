package io.sluice.governance.allocation;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.GovernedLlmGateway;
import io.sluice.governance.provider.ProviderPool;

import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Token allocation by request type, on by default ({@code sluice.gateway.allocation.enabled}): the bean
 * attaches itself to the governed gateway, so every call and stream is allocated from the start.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AllocationProperties.class)
@ConditionalOnProperty(name = "sluice.gateway.allocation.enabled", havingValue = "true", matchIfMissing = true)
public class AllocationConfiguration {

    @Bean(destroyMethod = "close")
    TokenAllocation tokenAllocation(GatewayAssembly assembly, AllocationProperties properties, RedissonClient redisson,
            ObjectProvider<MeterRegistry> registry) {
        ProviderPool providers = assembly.providers();
        TokenAllocation allocation = new TokenAllocation(redisson, properties,
            () -> assembly.members() == null ? 1 : assembly.members().known(),
            () -> providers == null ? 0 : providers.members().stream().mapToLong(m -> Math.max(0, m.tokens().limit())).sum(),
            registry.getIfAvailable(() -> Metrics.globalRegistry));
        if (assembly.gateway() instanceof GovernedLlmGateway governed) {
            governed.useAllocation(allocation);
        }
        return allocation;
    }
}
