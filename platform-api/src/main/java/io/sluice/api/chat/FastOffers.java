package io.sluice.api.chat;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.admission.WaitOffer;

import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fast-mode offers waiting for their client's answer, by request id. The answer may reach any
 * instance ({@code POST /api/v1/chat/{requestId}/offer}): one that does not hold the offer publishes it on
 * a Redis topic, and the instance that holds it takes it. Counted in
 * {@code sluice.chat.offers{outcome=made|fast|keep|defer}}.
 */
public class FastOffers {

    private static final Logger log = LoggerFactory.getLogger(FastOffers.class);

    /** Where a choice went. */
    public enum Delivery { TAKEN, FORWARDED, UNKNOWN }

    private record Pending(long clientId, ChatContext ctx, CompletableFuture<WaitOffer.Choice> choice) {
    }

    private final FastOfferProperties properties;
    private final ChatProperties chat;
    private final MeterRegistry meters;
    private final RTopic topic;
    private final Map<UUID, Pending> pending = new ConcurrentHashMap<>();

    public FastOffers(FastOfferProperties properties, ChatProperties chat, MeterRegistry meters, RedissonClient redisson,
            String topicName) {
        this.properties = properties;
        this.chat = chat;
        this.meters = meters;
        RTopic t = null;
        if (redisson != null) {
            try {
                t = redisson.getTopic(topicName, StringCodec.INSTANCE);
                t.addListener(String.class, (channel, message) -> fromTopic(message));
            } catch (RuntimeException e) {
                log.warn("fast offers: no Redis topic ({}), choices reach only the instance that holds the offer", e.toString());
                t = null;
            }
        }
        this.topic = t;
    }

    public boolean enabled() {
        return properties.enabled();
    }

    /** The offer for one streaming request, or null when offers are off or the request is not a stream. */
    public WaitOffer offerFor(ChatContext ctx) {
        if (!properties.enabled() || ctx.stream() == null) {
            return null;
        }
        return new WaitOffer() {
            @Override
            public long thresholdMs(Duration maxWait) {
                return Math.min(properties.threshold().toMillis(), maxWait.toMillis());
            }

            @Override
            public CompletableFuture<Choice> make(int position, long etaMs) {
                CompletableFuture<Choice> choice = new CompletableFuture<>();
                pending.put(ctx.requestId(), new Pending(ctx.client().id(), ctx, choice));
                meters.counter("sluice.chat.offers", "outcome", "made").increment();
                if (!ctx.stream().offer(ctx, position, etaMs, undecidedWait(Duration.ZERO).toMillis())) {
                    pending.remove(ctx.requestId());
                    return new CompletableFuture<>();      // could not ask: it waits as if it kept quiet
                }
                return choice;
            }

            @Override
            public Duration undecidedWait(Duration maxWait) {
                return max(maxWait, properties.undecidedWait());
            }

            @Override
            public Duration keptWait(Duration maxWait) {
                Duration cap = chat.streamTimeout().minus(chat.answerBudget());
                Duration kept = properties.keepWait().compareTo(cap) > 0 ? cap : properties.keepWait();
                return max(maxWait, kept);
            }
        };
    }

    /** The request no longer waits (admitted, answered, gone): a late choice finds nothing. */
    public void done(UUID requestId) {
        pending.remove(requestId);
    }

    /** A client's choice for its request; taken here, forwarded to the other instances, or unknown. */
    public Delivery choose(UUID requestId, long clientId, WaitOffer.Choice choice) {
        if (take(requestId, clientId, choice)) {
            return Delivery.TAKEN;
        }
        if (topic != null) {
            try {
                long listeners = topic.publish(requestId + " " + clientId + " " + choice.name());
                return listeners > 1 ? Delivery.FORWARDED : Delivery.UNKNOWN;   // this instance is one of them
            } catch (RuntimeException e) {
                log.debug("fast offers: choice not forwarded, Redis unavailable", e);
            }
        }
        return Delivery.UNKNOWN;
    }

    private boolean take(UUID requestId, long clientId, WaitOffer.Choice choice) {
        Pending p = pending.get(requestId);
        if (p == null || p.clientId() != clientId) {
            return false;
        }
        if (pending.remove(requestId, p)) {
            p.ctx().offerChoice(choice);
            meters.counter("sluice.chat.offers", "outcome", choice.name().toLowerCase(Locale.ROOT)).increment();
            p.choice().complete(choice);
        }
        return true;
    }

    private void fromTopic(String message) {
        try {
            String[] parts = message.split(" ");
            take(UUID.fromString(parts[0]), Long.parseLong(parts[1]), WaitOffer.Choice.valueOf(parts[2]));
        } catch (RuntimeException e) {
            log.debug("fast offers: unreadable choice on the topic: {}", message);
        }
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
