package io.sluice.api.chat;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The fast-mode offer on SSE chat streams ({@code sluice.chat.fast-offer.*}, docs/chat.md "Fast-mode offer").
 *
 * @param enabled       false = no offers: a request whose ETA misses its bound is answered at F1 at once, as before
 * @param threshold     a queued stream is offered a fast answer when its predicted wait reaches this, or its own
 *                      bound (the class's max wait) if that is shorter
 * @param undecidedWait how long a client that has not answered the offer keeps its place (at least its bound)
 * @param keepWait      how long, from its arrival, a client that chose "keep my place" may wait (its deadline);
 *                      at most the stream timeout less the answer budget
 */
@ConfigurationProperties("sluice.chat.fast-offer")
public record FastOfferProperties(@DefaultValue("true") boolean enabled, @DefaultValue("90s") Duration threshold,
        @DefaultValue("10s") Duration undecidedWait, @DefaultValue("45s") Duration keepWait) {

    public FastOfferProperties {
        if (threshold.isNegative() || threshold.isZero() || undecidedWait.isNegative() || keepWait.isNegative()) {
            throw new IllegalArgumentException("sluice.chat.fast-offer: threshold must be positive, "
                + "undecided-wait and keep-wait not negative");
        }
    }

    public static FastOfferProperties defaults() {
        return new FastOfferProperties(true, Duration.ofSeconds(90), Duration.ofSeconds(10), Duration.ofSeconds(45));
    }
}
