package io.sluice.api.auth;

import java.time.Duration;
import java.util.List;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * API-key authentication ({@code sluice.ingress.auth.*}).
 *
 * @param cacheTtl   how long a key lookup is cached (a revocation on another instance takes this long)
 * @param demoClient AUTO (create a demo client on the first start of the embedded default), ALWAYS
 *                   (on the first start whatever the mode), NEVER
 * @param demoKey    use this key for the demo client instead of a random one (blank = random; then it
 *                   is printed once in the startup log)
 * @param demoScopes the demo client's scopes (default chat, openai)
 * @param preAuth    the per-address limiter in front of authentication (bad keys, console logins)
 */
@Validated
@ConfigurationProperties("sluice.ingress.auth")
public record AuthProperties(@DefaultValue("30s") Duration cacheTtl, @DefaultValue("AUTO") DemoClient demoClient,
        String demoKey, @DefaultValue({"chat", "openai"}) List<String> demoScopes, @DefaultValue PreAuth preAuth) {

    public enum DemoClient { AUTO, ALWAYS, NEVER }

    /**
     * @param attempts    bad keys / logins one address may try in a burst
     * @param refillEvery one more attempt per this much time
     * @param maxInFlight console logins one address may have in flight at once (slow bodies hold threads)
     */
    public record PreAuth(@DefaultValue("20") @Min(1) int attempts, @DefaultValue("3s") Duration refillEvery,
            @DefaultValue("8") @Min(1) int maxInFlight) {
    }
}
