package io.sluice.governance.degradation;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DegradationProperties.class)
public class DegradationConfiguration {

    /** Sources are looked up on every tick (lazily), so a source may itself depend on the control. */
    @Bean(destroyMethod = "close")
    DegradationControl degradationControl(RedissonClient redisson, DegradationProperties properties,
            ObjectProvider<DegradationSignalSource> sources, ObjectProvider<MeterRegistry> meters) {
        return new DegradationControl(redisson, properties, sources, meters.getIfAvailable(),
            Clock.systemUTC());
    }
}
