package io.sluice.governance.permit;

import java.time.Duration;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Cluster-wide permits per lane ({@code sluice.permits.*}).
 *
 * @param keyPrefix   Redis key prefix of the lane semaphores
 * @param lanes       per lane: permits (cluster-wide), how long a caller may wait, how long a lease lasts
 * @param reuseWindow how long a permit taken from Redis may serve further calls on this instance before it
 *                    goes back (0 = every call takes and returns its own); its lease is this much longer
 * @param idleShare   the part of a lane's permits one instance may keep idle for reuse (0 = none); a lane too
 *                    small for one whole permit is never kept
 * @param idleLinger  how long a permit may wait idle for this instance's next call before it goes back to Redis
 */
@Validated
@ConfigurationProperties("sluice.permits")
public record PermitProperties(@NotBlank String keyPrefix, @NotEmpty Map<String, @Valid Lane> lanes,
        @NotNull Duration reuseWindow, @DecimalMin("0") @DecimalMax("1") double idleShare, @NotNull Duration idleLinger) {

    /** Each call takes and returns its own permit (no reuse), as for the providers' own small caps. */
    public PermitProperties(String keyPrefix, Map<String, Lane> lanes) {
        this(keyPrefix, lanes, Duration.ZERO, 0, Duration.ZERO);
    }

    @ConstructorBinding
    public PermitProperties(String keyPrefix, Map<String, Lane> lanes, @DefaultValue("5s") Duration reuseWindow,
            @DefaultValue("0.1") double idleShare, @DefaultValue("250ms") Duration idleLinger) {
        this.keyPrefix = keyPrefix;
        this.lanes = lanes;
        this.reuseWindow = reuseWindow;
        this.idleShare = idleShare;
        this.idleLinger = idleLinger;
        if (reuseWindow != null && reuseWindow.isNegative()) {
            throw new IllegalArgumentException("sluice.permits.reuse-window must not be negative, was " + reuseWindow);
        }
        if (idleLinger != null && idleLinger.isNegative()) {
            throw new IllegalArgumentException("sluice.permits.idle-linger must not be negative, was " + idleLinger);
        }
    }

    public record Lane(@Min(1) int permits, @NotNull Duration maxWait, @NotNull Duration lease) {
    }

    public Lane lane(String name) {
        Lane lane = lanes.get(name);
        if (lane == null) {
            throw new IllegalArgumentException("unknown lane '" + name + "'; configured: " + lanes.keySet());
        }
        return lane;
    }

    /** How many idle permits of a lane of {@code size} one instance may keep. */
    public int idleCap(int size) {
        return reuseWindow.isZero() ? 0 : (int) Math.floor(size * idleShare);
    }
}
