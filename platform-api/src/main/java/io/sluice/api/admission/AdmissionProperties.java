package io.sluice.api.admission;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import io.sluice.api.intent.Priority;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Priority admission in front of the interactive LLM lane ({@code sluice.chat.admission.*}).
 *
 * @param capacity           requests of this instance answering with the LLM at once
 * @param weights            per class, how fast a waiting request's turn comes (1 S : 2 A : 3 B)
 * @param vipFactor          a VIP client's weight is multiplied by this (0.5 = twice as fast)
 * @param agingQuantum       one weight unit of virtual time: a request's turn is at
 *                           {@code arrival + weight × quantum}, so it ages towards the front
 * @param maxWait            per class, the longest a request waits before it is answered at a lower tier
 * @param minShare           per class, the share of capacity reserved for it while it has waiters
 * @param initialServiceTime the service time assumed before any is measured (for ETAs)
 * @param smoothing          EWMA weight of a new service-time measurement (0..1)
 */
@ConfigurationProperties("sluice.chat.admission")
public record AdmissionProperties(
        @DefaultValue("8") int capacity,
        Map<Priority, Double> weights,
        @DefaultValue("0.5") double vipFactor,
        @DefaultValue("2s") Duration agingQuantum,
        Map<Priority, Duration> maxWait,
        Map<Priority, Double> minShare,
        @DefaultValue("800ms") Duration initialServiceTime,
        @DefaultValue("0.2") double smoothing) {

    public AdmissionProperties {
        if (capacity < 1) {
            throw new IllegalArgumentException("sluice.chat.admission.capacity must be at least 1");
        }
        Map<Priority, Double> w = new EnumMap<>(Map.of(Priority.S, 1.0, Priority.A, 2.0, Priority.B, 3.0));
        if (weights != null) {
            w.putAll(weights);
        }
        weights = Map.copyOf(w);
        Map<Priority, Duration> m = new EnumMap<>(Map.of(Priority.S, Duration.ofSeconds(2), Priority.A,
            Duration.ofSeconds(3), Priority.B, Duration.ofSeconds(4)));
        if (maxWait != null) {
            m.putAll(maxWait);
        }
        maxWait = Map.copyOf(m);
        Map<Priority, Double> shares = new EnumMap<>(Map.of(Priority.S, 0.0, Priority.A, 0.0, Priority.B, 0.25));
        if (minShare != null) {
            shares.putAll(minShare);
        }
        if (shares.values().stream().mapToDouble(Double::doubleValue).sum() > 1.0) {
            throw new IllegalArgumentException("sluice.chat.admission.min-share must add up to at most 1");
        }
        minShare = Map.copyOf(shares);
    }

    public static AdmissionProperties defaults(int capacity) {
        return new AdmissionProperties(capacity, null, 0.5, Duration.ofSeconds(2), null, null, Duration.ofMillis(800),
            0.2);
    }

    public double weight(Priority priority, boolean vip) {
        return weights.get(priority) * (vip ? vipFactor : 1.0);
    }
}
