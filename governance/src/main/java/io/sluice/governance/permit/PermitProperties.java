package io.sluice.governance.permit;

import java.time.Duration;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Cluster-wide permits per lane ({@code sluice.permits.*}).
 *
 * @param keyPrefix Redis key prefix of the lane semaphores
 * @param lanes     per lane: permits (cluster-wide), how long a caller may wait, how long a lease lasts
 */
@Validated
@ConfigurationProperties("sluice.permits")
public record PermitProperties(@NotBlank String keyPrefix, @NotEmpty Map<String, @Valid Lane> lanes) {

    public record Lane(@Min(1) int permits, @NotNull Duration maxWait, @NotNull Duration lease) {
    }

    public Lane lane(String name) {
        Lane lane = lanes.get(name);
        if (lane == null) {
            throw new IllegalArgumentException("unknown lane '" + name + "'; configured: " + lanes.keySet());
        }
        return lane;
    }
}
