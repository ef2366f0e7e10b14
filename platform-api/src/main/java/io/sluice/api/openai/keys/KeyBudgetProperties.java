package io.sluice.api.openai.keys;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Gateway keys ({@code sluice.gateway.keys.*}, docs/gateway.md).
 *
 * @param prices             provider model name → price per million input and output tokens (any currency;
 *                           budgets use the same unit); a model without a price costs 0
 * @param requestLogRetention how long /v1 request-log rows are kept
 * @param policyCacheTtl     key policies and today's spend are re-read this often (budgets may overshoot by the
 *                           calls in flight within it)
 * @param writeBehind        how request-log rows and spend reach PostgreSQL
 */
@Validated
@ConfigurationProperties("sluice.gateway.keys")
public record KeyBudgetProperties(Map<String, @Valid Price> prices, @DefaultValue("14d") @NotNull Duration requestLogRetention,
        @DefaultValue("2s") @NotNull Duration policyCacheTtl, @Valid @NotNull @DefaultValue WriteBehind writeBehind) {

    public KeyBudgetProperties {
        prices = prices == null ? Map.of() : Map.copyOf(prices);
    }

    /**
     * Request-log rows and spend are written in batches off the request path ({@code enabled}), every
     * {@code flushEvery}, before either is read (console, spend API, a budget check that re-reads the spend) and on
     * shutdown; {@code maxPending} rows or spend entries waiting at most, beyond which a call writes its own
     * synchronously (PostgreSQL slow or down: nothing is dropped for want of room). Disabled: two INSERTs per call.
     */
    public record WriteBehind(@DefaultValue("true") boolean enabled,
            @DefaultValue("200ms") @NotNull @DurationMin(millis = 1) @DurationMax(seconds = 60) Duration flushEvery,
            @DefaultValue("10000") @Min(1) @Max(1_000_000) int maxPending) {
    }

    public record Price(@NotNull @DecimalMin("0") BigDecimal input, @NotNull @DecimalMin("0") BigDecimal output) {
    }

    /** The cost of one answer: tokens × price per million. */
    public BigDecimal cost(String model, long promptTokens, long completionTokens) {
        Price price = model == null ? null : prices.get(model);
        if (price == null) {
            return BigDecimal.ZERO;
        }
        return price.input().multiply(BigDecimal.valueOf(promptTokens)).add(price.output()
            .multiply(BigDecimal.valueOf(completionTokens))).movePointLeft(6);
    }
}
