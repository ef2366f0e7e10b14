package io.sluice.api.ingress;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.cluster.LuaScript;
import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.gateway.EmbeddingOutcome;
import io.sluice.governance.gateway.EmbeddingRequest;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.gateway.LlmStream;
import io.sluice.governance.gateway.LlmStreamListener;

import org.redisson.api.RedissonClient;

/**
 * How many gateway calls one end user's requests may cause: a sliding-window log per user in Redis (one
 * Lua script, the Redis clock), counted per LLM call, not per request — an answer that steps down from F4
 * to F3 to F2 made three. Past the limit the user's answers come without the LLM. VIP end users (and VIP
 * clients' users) get {@code vipMultiplier}× the limit. Redis unreachable: calls are allowed (the per-user
 * request bucket and the gateway's own limits still hold) and counted in
 * {@code sluice.ingress.llm-calls{outcome=unchecked}}.
 */
public class UserLlmCalls {

    /** One take: allowed or not, calls in the window (this one included when allowed), the user's limit. */
    public record Decision(boolean allowed, long calls, long limit, Duration retryAfter) {
    }

    // KEYS[1]: the user's log (members "<id>", scores ms). ARGV: limit, windowMs, id. Reply: {allowed, count, retryMs}
    static final String SCRIPT = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
        redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
        local count = redis.call('ZCARD', KEYS[1])
        if count >= limit then
          local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
          local retry = window
          if oldest[2] then retry = math.max(1, tonumber(oldest[2]) + window - now) end
          return {0, count, retry}
        end
        redis.call('ZADD', KEYS[1], now, ARGV[3])
        redis.call('PEXPIRE', KEYS[1], window)
        return {1, count + 1, 0}
        """;

    private final RateLimitProperties.LlmCalls properties;
    private final LuaScript script;
    private final RedisGuard guard;
    private final String idPrefix = UUID.randomUUID().toString().substring(0, 13);
    private final AtomicLong ids = new AtomicLong();
    private final Counter allowed;
    private final Counter refused;
    private final Counter unchecked;

    public UserLlmCalls(RedissonClient redisson, RateLimitProperties.LlmCalls properties, Duration redisRetryAfter,
            MeterRegistry meters) {
        this.properties = properties;
        this.script = new LuaScript(redisson, SCRIPT);
        this.guard = new RedisGuard(redisRetryAfter);
        String name = "sluice.ingress.llm-calls";
        String description = "LLM calls on behalf of end users, by outcome (refused: the user's window limit)";
        this.allowed = Counter.builder(name).tag("outcome", "allowed").description(description).register(meters);
        this.refused = Counter.builder(name).tag("outcome", "refused").description(description).register(meters);
        this.unchecked = Counter.builder(name).tag("outcome", "unchecked").description(description).register(meters);
    }

    public boolean enabled() {
        return properties.enabled();
    }

    public long limit(boolean vip) {
        return vip ? (long) Math.floor(properties.limit() * properties.vipMultiplier()) : properties.limit();
    }

    /** Counts one LLM call for {@code user} ({@code client:userId}) unless the window already holds the limit. */
    public Decision take(String user, boolean vip) {
        long limit = limit(vip);
        if (!properties.enabled()) {
            return new Decision(true, 0, limit, Duration.ZERO);
        }
        String id = idPrefix + ids.incrementAndGet();
        Decision decision = guard.call(() -> {
            List<Long> reply = script.run(List.of(properties.keyPrefix() + "{" + UserTokenBucket.keyOf(user) + "}"), limit,
                properties.window().toMillis(), id);
            return new Decision(reply.get(0) == 1, reply.get(1), limit, Duration.ofMillis(reply.get(2)));
        }, () -> null);
        if (decision == null) {
            unchecked.increment();
            return new Decision(true, 0, limit, Duration.ZERO);
        }
        (decision.allowed() ? allowed : refused).increment();
        return decision;
    }

    /**
     * The gateway as one request of {@code user} sees it: every call first takes one from the user's window;
     * past the limit a call is refused as {@code Saturated} without reaching the gateway (so a chat answer
     * steps down to F1 and /v1 answers 429), and the request's later calls are refused without asking again.
     */
    public LlmGateway bind(LlmGateway gateway, String user, boolean vip) {
        return properties.enabled() ? new Bound(gateway, user, vip) : gateway;
    }

    private final class Bound implements LlmGateway {
        private final LlmGateway gateway;
        private final String user;
        private final boolean vip;
        private volatile LlmOutcome.Saturated refused;

        Bound(LlmGateway gateway, String user, boolean vip) {
            this.gateway = gateway;
            this.user = user;
            this.vip = vip;
        }

        @Override
        public boolean available() {
            return gateway.available();
        }

        private LlmOutcome.Saturated refusal(LlmRequest request) {
            if (refused != null) {
                return refused;
            }
            Decision decision = take(user, vip);
            if (decision.allowed()) {
                return null;
            }
            refused = new LlmOutcome.Saturated(request.lane(), decision.retryAfter(),
                "per-user LLM call limit: " + decision.limit() + " calls per " + properties.window().toSeconds() + " s spent");
            return refused;
        }

        @Override
        public LlmOutcome call(LlmRequest request) {
            LlmOutcome.Saturated no = refusal(request);
            return no != null ? no : gateway.call(request);
        }

        @Override
        public LlmStream stream(LlmRequest request, LlmStreamListener listener) {
            LlmOutcome.Saturated no = refusal(request);
            if (no == null) {
                return gateway.stream(request, listener);
            }
            listener.onEnd(no);
            return new LlmStream() {
                @Override
                public void cancel() {
                }

                @Override
                public boolean finished() {
                    return true;
                }
            };
        }

        @Override
        public EmbeddingOutcome embed(EmbeddingRequest request) {
            return gateway.embed(request);
        }
    }
}
