package io.sluice.governance.provider;

import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The LLM providers ({@code sluice.llm.*}, docs/gateway.md). With {@code providers} empty, the short
 * form {@code sluice.llm.base-url} (= {@code sluice.gateway.base-url}) is one provider named {@code default}.
 *
 * @param baseUrl    the short form's OpenAI-compatible base URL (blank = none)
 * @param providers  named providers; routes ({@code sluice.gateway.models.*.targets}) point at them
 */
@Validated
@ConfigurationProperties("sluice.llm")
public record LlmProperties(String baseUrl, List<@Valid Provider> providers) {

    public LlmProperties {
        providers = providers == null ? List.of() : List.copyOf(providers);
    }

    /**
     * One provider.
     *
     * @param name       its name (targets, metrics, console)
     * @param kind       openai, openai-compatible, azure, vllm, ollama, deepseek, dashscope
     * @param baseUrl    its base URL
     * @param apiKeyEnv  environment variable holding its key (the key itself never sits in configuration)
     * @param apiVersion Azure's api-version
     * @param permits    calls in flight at it, cluster-wide (0 = no own cap)
     * @param rpm        requests per minute (0 = no limit)
     * @param tpm        tokens per minute (0 = no limit)
     * @param timeout    longest single attempt (blank = share of the call's budget)
     * @param breaker    consecutive failures that open its breaker, and for how long
     * @param shiftBelow remaining requests / tokens below which traffic shifts away until the reset
     */
    public record Provider(@NotBlank String name, ProviderKind kind, @NotBlank String baseUrl, String apiKeyEnv,
            String apiVersion, @Min(0) int permits, @Min(0) long rpm, @Min(0) long tpm, Duration timeout,
            @Valid Breaker breaker, @Valid ShiftBelow shiftBelow) {

        public ProviderSettings settings() {
            Breaker b = breaker == null ? new Breaker(5, Duration.ofSeconds(30)) : breaker;
            ShiftBelow shift = shiftBelow == null ? new ShiftBelow(0, 0) : shiftBelow;
            return new ProviderSettings(permits, rpm, tpm, Duration.ofMinutes(1), timeout, b.failures(), b.openFor(),
                shift.requests(), shift.tokens());
        }

        public ProviderEndpoint endpoint() {
            String key = apiKeyEnv == null || apiKeyEnv.isBlank() ? null : System.getenv(apiKeyEnv);
            return new ProviderEndpoint(name, kind, baseUrl, key, apiVersion);
        }
    }

    public record Breaker(@Min(1) int failures, @NotNull Duration openFor) {
    }

    public record ShiftBelow(@Min(0) long requests, @Min(0) long tokens) {
    }
}
