package io.sluice.api.openai.keys;

import java.math.BigDecimal;
import java.util.List;

/**
 * What one API key may do at the gateway (table gateway_key_policy).
 *
 * @param allowedModels route keys or model names it may call (empty = every model)
 * @param dailyTokens   tokens per UTC day (null = no budget); likewise monthly, and cost in the price table's unit
 * @param allowDegraded whether its /v1 calls get degraded (F1) answers instead of 503/504 errors
 * @param semanticCache whether its /v1 calls that are one standalone user turn may be answered from the
 *                      semantic cache (and fill it), through the chat's verifier
 */
public record KeyPolicy(List<String> allowedModels, Long dailyTokens, Long monthlyTokens, BigDecimal dailyCost,
        BigDecimal monthlyCost, boolean allowDegraded, boolean semanticCache) {

    public static final KeyPolicy OPEN = new KeyPolicy(List.of(), null, null, null, null, false, false);

    /** A policy without the semantic cache. */
    public KeyPolicy(List<String> allowedModels, Long dailyTokens, Long monthlyTokens, BigDecimal dailyCost,
            BigDecimal monthlyCost, boolean allowDegraded) {
        this(allowedModels, dailyTokens, monthlyTokens, dailyCost, monthlyCost, allowDegraded, false);
    }

    public KeyPolicy {
        allowedModels = allowedModels == null ? List.of() : List.copyOf(allowedModels);
        for (Long v : new Long[] {dailyTokens, monthlyTokens}) {
            if (v != null && v < 0) {
                throw new IllegalArgumentException("token budgets must not be negative");
            }
        }
        for (BigDecimal v : new BigDecimal[] {dailyCost, monthlyCost}) {
            if (v != null && v.signum() < 0) {
                throw new IllegalArgumentException("cost budgets must not be negative");
            }
        }
        if (allowedModels.size() > 100 || allowedModels.stream().anyMatch(m -> m == null || m.isBlank() || m.length() > 200)) {
            throw new IllegalArgumentException("allowed models: at most 100 non-blank names of at most 200 characters");
        }
    }

    /** Whether the key may call a model named {@code requested} that resolves to {@code route}. */
    public boolean allows(String requested, String route) {
        return allowedModels.isEmpty() || allowedModels.stream().anyMatch(m -> m.equalsIgnoreCase(requested)
            || m.equalsIgnoreCase(route));
    }
}
