package io.sluice.api.openai.keys;

import java.time.Clock;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KeyBudgetProperties.class)
public class GatewayKeysConfiguration {

    @Bean
    KeyBudgets keyBudgets(JdbcClient jdbc, KeyBudgetProperties properties) {
        return new KeyBudgets(jdbc, properties, Clock.systemUTC());
    }

    @Bean
    RequestLog gatewayRequestLog(JdbcClient jdbc, KeyBudgetProperties properties) {
        return new RequestLog(jdbc, properties);
    }

    /** Closed at shutdown (destroy method inferred from close()): writes what is still queued. */
    @Bean
    GatewayWriteBehind gatewayWriteBehind(RequestLog requestLog, KeyBudgets budgets, KeyBudgetProperties properties) {
        return new GatewayWriteBehind(requestLog, budgets, properties);
    }
}
