package io.sluice.governance.gateway;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitProperties;

import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the gateway: {@link LlmGateway} (governed when {@code sluice.gateway.base-url} is set, else the
 * disabled gateway that degrades at once), the lane {@link ClusterPermits}, and the
 * {@link GatewayAssembly} (for the console: Sentinel rules, rate limits). A cyclic or unknown model
 * route fails start-up with a message naming it.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({GatewayProperties.class, io.sluice.governance.provider.LlmProperties.class})
public class GatewayConfiguration {

    private static final Logger log = LoggerFactory.getLogger(GatewayConfiguration.class);

    @Bean(destroyMethod = "close")
    GatewayAssembly gatewayAssembly(GatewayProperties properties, io.sluice.governance.provider.LlmProperties llm,
            PermitProperties permits, RedissonClient redisson, ObjectProvider<MeterRegistry> registry,
            org.springframework.core.env.Environment environment) {
        GatewayAssembly assembly = GatewayAssembly.assemble(properties, llm, permits, redisson,
            registry.getIfAvailable(() -> Metrics.globalRegistry));
        String embeddingRoute = environment.getProperty("sluice.gateway.embeddings.route", "");
        if (!embeddingRoute.isBlank()) {
            assembly.withEmbeddings(embeddingRoute, org.springframework.boot.context.properties.bind.Binder.get(environment)
                .bind("sluice.gateway.embeddings.budget", java.time.Duration.class)
                .orElse(java.time.Duration.ofSeconds(10)), permits);
        }
        if (assembly.gateway().available()) {
            assembly.providers().members().forEach(p -> log.info("llm gateway: provider {}", p.endpoint()));
        } else {
            log.info("llm gateway: no provider configured; LLM tiers are off and answers come without an LLM");
        }
        return assembly;
    }

    @Bean
    LlmGateway llmGateway(GatewayAssembly assembly) {
        return assembly.gateway();
    }

    @Bean
    ClusterPermits clusterPermits(GatewayAssembly assembly) {
        return assembly.permits();
    }
}
