package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The LLM gateway ({@code sluice.gateway.*}); documented key by key in application.yml and docs/gateway.md.
 * Permits per lane live under {@code sluice.permits.*}.
 *
 * @param baseUrl     OpenAI-compatible base URL (e.g. {@code https://api.openai.com/v1}); blank = no
 *                    provider: every call is {@code Degraded(NOT_CONFIGURED)}
 * @param apiKey      the provider key (from the environment; never logged)
 * @param keyPrefix   Redis key prefix of the gateway's shared state
 * @param models      configured models: key → provider model name and fallback
 * @param lanes       per lane key (interactive, intent, batch): route, budget, retries, breaker, Sentinel rules
 * @param tpm         the provider's tokens-per-window budget, shared by the cluster
 * @param retryBudget cluster-wide cap on retries as a ratio of calls
 * @param redisRecheck after Redis fails, how long to use local shares before trying it again
 * @param heartbeat   how often an instance announces itself (known instances split limits when Redis is down)
 */
@Validated
@ConfigurationProperties("sluice.gateway")
public record GatewayProperties(String baseUrl, String apiKey, @NotBlank String keyPrefix,
        @NotEmpty Map<String, @Valid Model> models, @NotEmpty Map<String, @Valid LaneConfig> lanes,
        @NotNull @Valid Tpm tpm, @NotNull @Valid RetryBudget retryBudget, @NotNull Duration redisRecheck,
        @NotNull Duration heartbeat) {

    /**
     * @param name     the provider's model name (of the default provider, when no targets are given)
     * @param fallback the configured model tried when this one fails (blank = none)
     * @param targets  where the route is served: ordered, weighted (provider, model) pairs (empty = the
     *                 first provider with {@code name})
     * @param aliases  more names clients may send as {@code model} for this route
     */
    public record Model(@NotBlank String name, String fallback, List<@Valid Target> targets, List<String> aliases) {
        @org.springframework.boot.context.properties.bind.ConstructorBinding
        public Model {
            targets = targets == null ? List.of() : List.copyOf(targets);
            aliases = aliases == null ? List.of() : List.copyOf(aliases);
        }

        public Model(String name, String fallback) {
            this(name, fallback, List.of(), List.of());
        }
    }

    /** @param weight share of the route's traffic (default 1; 0 = standby, tried only when the others fail) */
    public record Target(@NotBlank String provider, @NotBlank String model, @Min(0) Integer weight) {
        public Target {
            weight = weight == null ? 1 : weight;
        }
    }

    /**
     * @param route         the model key a call starts with (its fallback chain follows)
     * @param budget        total time budget per call, retries and waits included
     * @param retries       retries per model after the first attempt (inside the budget)
     * @param backoff       waits before retries (empty = immediate); the last repeats
     * @param rateLimitWait how long a call may wait out a 429 cool-down or a spent token bucket
     *                      (interactive: 0 = degrade at once; batch: pacing)
     * @param breaker       the fast-path breaker (consecutive failures); null = none
     * @param sentinel      Sentinel rules of the lane (local guard, QPS, slow/error-ratio breaker)
     */
    public record LaneConfig(@NotBlank String route, @NotNull Duration budget, @Min(0) int retries, List<Duration> backoff,
            Duration rateLimitWait, @Valid Breaker breaker, @NotNull @Valid Sentinel sentinel) {
        public LaneConfig {
            backoff = backoff == null ? List.of() : List.copyOf(backoff);
            rateLimitWait = rateLimitWait == null ? Duration.ZERO : rateLimitWait;
        }
    }

    /** @param failures consecutive failures that open it; @param openFor how long before a half-open probe */
    public record Breaker(@Min(1) int failures, @NotNull Duration openFor) {
    }

    public record Sentinel(@Min(1) int maxThreads, @DecimalMin("0") double qps, Duration slowCall,
            @DecimalMin("0") @DecimalMax("1") double slowRatio, @DecimalMin("0") @DecimalMax("1") double errorRatio,
            @Min(1) int minRequests, Duration statInterval, Duration openFor) {
    }

    /** @param limit tokens per window, cluster-wide (0 = no limit); @param window 1m for a per-minute limit */
    public record Tpm(@Min(0) long limit, @NotNull Duration window) {
    }

    /** @param ratio retries ÷ calls allowed; @param minRetries per window even when quiet; @param window counting window */
    public record RetryBudget(@DecimalMin("0") @DecimalMax("1") double ratio, @Min(0) int minRetries, @NotNull Duration window) {
    }

    public boolean providerConfigured() {
        return baseUrl != null && !baseUrl.isBlank();
    }

    public LaneConfig lane(Lane lane) {
        LaneConfig config = lanes.get(lane.key());
        if (config == null) {
            throw new IllegalArgumentException("no configuration for lane '" + lane.key() + "' under sluice.gateway.lanes");
        }
        return config;
    }
}
