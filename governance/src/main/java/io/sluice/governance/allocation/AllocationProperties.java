package io.sluice.governance.allocation;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.sluice.governance.gateway.RequestType;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Token allocation by request type ({@code sluice.gateway.allocation.*}).
 *
 * @param enabled          count and allocate the gateway's tokens by request type (false = no allocation at all)
 * @param limit            tokens per window for the whole cluster; 0 = derived: the providers' last
 *                         {@code x-ratelimit-limit-tokens}, else their configured {@code tpm}, else {@code fallbackLimit}
 * @param fallbackLimit    the budget when neither a header nor a configured tpm says anything
 * @param window           the sliding window the budget is for (counted in {@code slots} sub-windows)
 * @param slots            sub-windows of the window (more = smoother sliding, a bigger hash in Redis)
 * @param share            a type above this part of the budget in the window makes the reserve apply (0.6)
 * @param reserve          then this part of what is left (0.3) only the interactive types may use
 * @param interactiveTypes the short interactive types the reserve is kept for
 * @param stepDownRoute    a call that does not fit is tried once more on this (cheaper) route ... (blank = none)
 * @param stepDownMaxTokens ... with at most this many completion tokens; still no fit: {@code Saturated}
 *                         (the chat steps down a tier, batch work is put back)
 * @param keyPrefix        Redis key of the cluster-wide window and the live settings
 * @param redisRecheck     after a Redis failure, count locally (this instance's share) this long
 */
@ConfigurationProperties("sluice.gateway.allocation")
public record AllocationProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("0") long limit,
        @DefaultValue("200000") long fallbackLimit,
        @DefaultValue("1m") Duration window,
        @DefaultValue("12") int slots,
        @DefaultValue("0.6") double share,
        @DefaultValue("0.3") double reserve,
        @DefaultValue({"chat_answer", "intent", "front_door"}) List<String> interactiveTypes,
        @DefaultValue("light") String stepDownRoute,
        @DefaultValue("256") int stepDownMaxTokens,
        @DefaultValue("sluice:gw:alloc:") String keyPrefix,
        @DefaultValue("2s") Duration redisRecheck) {

    public AllocationProperties {
        if (limit < 0 || fallbackLimit < 1) {
            throw new IllegalArgumentException("sluice.gateway.allocation.limit must be >= 0 and fallback-limit >= 1");
        }
        if (window == null || window.toMillis() < slots || slots < 1 || slots > 120) {
            throw new IllegalArgumentException("sluice.gateway.allocation: window must be at least `slots` ms, slots 1..120");
        }
        TokenAllocation.Settings.check(share, reserve);
        if (stepDownMaxTokens < 1) {
            throw new IllegalArgumentException("sluice.gateway.allocation.step-down-max-tokens must be positive");
        }
        interactiveTypes = interactiveTypes == null ? List.of() : List.copyOf(interactiveTypes);
        for (String type : interactiveTypes) {
            if (RequestType.fromKey(type).isEmpty()) {
                throw new IllegalArgumentException("sluice.gateway.allocation.interactive-types: unknown request type '"
                    + type + "' (known: " + java.util.Arrays.stream(RequestType.values()).map(RequestType::key).toList() + ")");
            }
        }
        stepDownRoute = stepDownRoute == null ? "" : stepDownRoute.strip();
    }

    public static AllocationProperties defaults() {
        return new AllocationProperties(true, 0, 200_000, Duration.ofMinutes(1), 12, 0.6, 0.3,
            List.of("chat_answer", "intent", "front_door"), "light", 256, "sluice:gw:alloc:", Duration.ofSeconds(2));
    }

    public Set<RequestType> interactive() {
        return interactiveTypes.stream().map(t -> RequestType.fromKey(t).orElseThrow()).collect(Collectors.toUnmodifiableSet());
    }
}
