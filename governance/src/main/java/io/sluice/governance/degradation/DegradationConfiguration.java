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
            ObjectProvider<DegradationSignalSource> sources, ObjectProvider<MeterRegistry> meters,
            org.springframework.core.env.Environment environment) {
        return new DegradationControl(redisson, properties, sources, meters.getIfAvailable(),
            Clock.systemUTC(), routeShift(environment));
    }

    /** {@code sluice.gateway.route-shift.*}: step, every, back-every (docs/gateway.md); enabled=false moves at once. */
    static io.sluice.governance.route.RouteShift.Settings routeShift(org.springframework.core.env.Environment env) {
        if (!env.getProperty("sluice.gateway.route-shift.enabled", Boolean.class, true)) {
            return null;
        }
        io.sluice.governance.route.RouteShift.Settings d = io.sluice.governance.route.RouteShift.Settings.DEFAULTS;
        org.springframework.boot.context.properties.bind.Binder binder =
            org.springframework.boot.context.properties.bind.Binder.get(env);
        return new io.sluice.governance.route.RouteShift.Settings(
            binder.bind("sluice.gateway.route-shift.step", Double.class).orElse(d.step()),
            binder.bind("sluice.gateway.route-shift.every", java.time.Duration.class).orElse(d.every()),
            binder.bind("sluice.gateway.route-shift.back-every", java.time.Duration.class).orElse(d.backEvery()));
    }
}
