package io.sluice.api.openai.keys;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;

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
 */
@Validated
@ConfigurationProperties("sluice.gateway.keys")
public record KeyBudgetProperties(Map<String, @Valid Price> prices, @DefaultValue("14d") @NotNull Duration requestLogRetention,
        @DefaultValue("2s") @NotNull Duration policyCacheTtl) {

    public KeyBudgetProperties {
        prices = prices == null ? Map.of() : Map.copyOf(prices);
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
