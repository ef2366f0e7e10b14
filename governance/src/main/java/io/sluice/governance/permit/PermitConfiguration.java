package io.sluice.governance.permit;

import org.redisson.api.RedissonClient;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PermitProperties.class)
public class PermitConfiguration {

    @Bean
    ClusterPermits clusterPermits(RedissonClient redisson, PermitProperties properties) {
        return new ClusterPermits(redisson, properties);
    }
}
