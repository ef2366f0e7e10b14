package io.sluice.api.auth;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * API-key authentication ({@code sluice.ingress.auth.*}).
 *
 * @param cacheTtl   how long a key lookup is cached (a revocation on another instance takes this long)
 * @param demoClient AUTO (create a demo client on the first start of the embedded default), ALWAYS
 *                   (on the first start whatever the mode), NEVER
 * @param demoKey    use this key for the demo client instead of a random one (blank = random; then it
 *                   is printed once in the startup log)
 */
@ConfigurationProperties("sluice.ingress.auth")
public record AuthProperties(@DefaultValue("30s") Duration cacheTtl, @DefaultValue("AUTO") DemoClient demoClient,
        String demoKey) {

    public enum DemoClient { AUTO, ALWAYS, NEVER }
}
