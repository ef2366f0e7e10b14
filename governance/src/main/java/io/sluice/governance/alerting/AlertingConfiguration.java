package io.sluice.governance.alerting;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationSignalSource;
import io.sluice.governance.degradation.DegradationSignals;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AlertingProperties.class)
@ConditionalOnProperty(name = "sluice.alerting.enabled", matchIfMissing = true)
public class AlertingConfiguration {

    @Bean(destroyMethod = "close")
    Alerting alerting(AlertingProperties properties, DegradationControl degradation,
            ObjectProvider<DegradationSignalSource> sources, ObjectProvider<MeterRegistry> meterRegistry) {
        MeterRegistry meters = meterRegistry.getIfAvailable(SimpleMeterRegistry::new);
        // sources are read on every tick (lazily), like the automatic level does
        AlertSignals signals = new AlertSignals(meters, () -> sources.orderedStream()
            .map(DegradationSignalSource::read).reduce(DegradationSignals.IDLE, DegradationSignals::worst),
            degradation::level);
        String instance = properties.instance() != null && !properties.instance().isBlank() ? properties.instance()
            : hostName();
        Clock clock = Clock.systemUTC();
        HttpClient http = HttpClient.newBuilder().connectTimeout(properties.deliveryTimeout()).build();
        List<AlertSink> sinks = new ArrayList<>();
        if (properties.webhookUrl() != null) {
            sinks.add(HttpAlertSinks.webhook(properties.webhookUrl(), properties.deliveryTimeout(), instance, http));
        }
        if (properties.alertmanagerUrl() != null) {
            sinks.add(HttpAlertSinks.alertmanager(properties.alertmanagerUrl(), properties.deliveryTimeout(),
                properties.resendEvery(), clock, http));
        }
        return new Alerting(properties.rules(), instance, signals, sinks, properties.interval(),
            properties.resendEvery(), meters, clock);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "sluice";
        }
    }
}
