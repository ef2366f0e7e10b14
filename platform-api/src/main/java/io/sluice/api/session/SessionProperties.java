package io.sluice.api.session;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Session context ({@code sluice.chat.session.*}).
 *
 * @param ttl       how long an idle session's turns stay in Redis
 * @param maxTurns  messages kept per session in Redis (user and assistant each count one)
 * @param keyPrefix Redis key prefix
 */
@ConfigurationProperties("sluice.chat.session")
public record SessionProperties(@DefaultValue("30m") Duration ttl, @DefaultValue("12") int maxTurns,
        @DefaultValue("sluice:session:") String keyPrefix) {
}
