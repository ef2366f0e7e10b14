package io.sluice.governance.provider;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import io.sluice.governance.breaker.ConsecutiveFailureBreaker;
import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitLease;
import io.sluice.governance.permit.PermitProperties;
import io.sluice.governance.tpm.ProviderRateLimits;

import org.redisson.api.RedissonClient;

/**
 * Every configured provider with what governs it on its own: cluster permits, a TPM window and an RPM
 * window (both shared through Redis, with the 429 cool-downs), a consecutive-failure breaker, calls in
 * flight on this instance, and the proactive shift: a provider whose {@code x-ratelimit-remaining-*}
 * fell below its threshold is "low" until the reset it announced and is tried after the others.
 */
public final class ProviderPool implements AutoCloseable {

    /** One provider at run time. */
    public static final class Member {
        private final ProviderEndpoint endpoint;
        private final ProviderClient client;
        private final ProviderSettings settings;
        private final ProviderRateLimits tokens;
        private final ProviderRateLimits requests;
        private final ConsecutiveFailureBreaker breaker;
        private final AtomicInteger inFlight = new AtomicInteger();
        private volatile long lowUntilNanos;

        Member(ProviderEndpoint endpoint, ProviderClient client, ProviderSettings settings, ProviderRateLimits tokens,
                ProviderRateLimits requests) {
            this.endpoint = endpoint;
            this.client = client;
            this.settings = settings;
            this.tokens = tokens;
            this.requests = requests;
            this.breaker = new ConsecutiveFailureBreaker("provider " + endpoint.name() + " breaker", settings.breakerFailures(),
                settings.breakerOpenFor());
        }

        public String name() {
            return endpoint.name();
        }

        public ProviderEndpoint endpoint() {
            return endpoint;
        }

        public ProviderClient client() {
            return client;
        }

        public ProviderSettings settings() {
            return settings;
        }

        /** Tokens per window and the 429 cool-downs of this provider's targets. */
        public ProviderRateLimits tokens() {
            return tokens;
        }

        /** Requests per minute (null when the provider has no RPM limit). */
        public ProviderRateLimits requests() {
            return requests;
        }

        public ConsecutiveFailureBreaker breaker() {
            return breaker;
        }

        public int inFlight() {
            return inFlight.get();
        }

        public void started() {
            inFlight.incrementAndGet();
        }

        public void ended() {
            inFlight.decrementAndGet();
        }

        /** Whether its remaining requests or tokens fell below the threshold and have not reset yet. */
        public boolean low() {
            return lowUntilNanos - System.nanoTime() > 0;
        }

        /** Reads the provider's remaining quota; below a threshold, traffic shifts away until its reset. */
        public void observe(RateLimitInfo info) {
            Duration until = null;
            if (settings.shiftBelowRequests() > 0 && info.remainingRequests() != null
                    && info.remainingRequests() < settings.shiftBelowRequests()) {
                until = info.resetRequests() == null ? Duration.ofSeconds(1) : info.resetRequests();
            }
            if (settings.shiftBelowTokens() > 0 && info.remainingTokens() != null
                    && info.remainingTokens() < settings.shiftBelowTokens()) {
                Duration tokensReset = info.resetTokens() == null ? Duration.ofSeconds(1) : info.resetTokens();
                until = until == null || tokensReset.compareTo(until) > 0 ? tokensReset : until;
            }
            if (until != null) {
                lowUntilNanos = System.nanoTime() + until.toNanos();
            }
        }
    }

    private final Map<String, Member> members;
    private final ClusterPermits permits;

    private ProviderPool(Map<String, Member> members, ClusterPermits permits) {
        this.members = members;
        this.permits = permits;
    }

    /** A provider as configured: where it is, its client and its limits. */
    public record Spec(ProviderEndpoint endpoint, ProviderClient client, ProviderSettings settings) {
    }

    /**
     * @param keyPrefix        Redis prefix of the gateway's shared state
     * @param defaultTokens    the TPM window of the one-provider short form (its historical keys), or null
     */
    public static ProviderPool of(Collection<Spec> specs, RedissonClient redisson, String keyPrefix, RedisGuard guard,
            IntSupplier knownInstances, ProviderRateLimits defaultTokens) {
        Map<String, Member> members = new LinkedHashMap<>();
        Map<String, PermitProperties.Lane> permitLanes = new LinkedHashMap<>();
        for (Spec spec : specs) {
            String name = spec.endpoint().name();
            if (members.containsKey(name)) {
                throw new IllegalArgumentException("provider '" + name + "' is configured twice");
            }
            ProviderSettings s = spec.settings();
            String prefix = keyPrefix + "p:" + name + ":";
            ProviderRateLimits tokens = defaultTokens != null && specs.size() == 1 ? defaultTokens
                : new ProviderRateLimits(redisson, prefix, guard, knownInstances, s.tpm(), s.tpmWindow());
            ProviderRateLimits requests = s.rpm() <= 0 ? null
                : new ProviderRateLimits(redisson, prefix + "rpm:", guard, knownInstances, s.rpm(), Duration.ofMinutes(1));
            members.put(name, new Member(spec.endpoint(), spec.client(), s, tokens, requests));
            if (s.permits() > 0) {
                permitLanes.put(name, new PermitProperties.Lane(s.permits(), Duration.ZERO, Duration.ofMinutes(5)));
            }
        }
        ClusterPermits permits = permitLanes.isEmpty() ? null
            : new ClusterPermits(redisson, new PermitProperties(keyPrefix + "provider-permits:", permitLanes), guard,
                knownInstances);
        return new ProviderPool(members, permits);
    }

    public Member get(String name) {
        Member member = members.get(name);
        if (member == null) {
            throw new IllegalArgumentException("unknown provider '" + name + "'; configured: " + members.keySet());
        }
        return member;
    }

    public boolean contains(String name) {
        return members.containsKey(name);
    }

    public Collection<Member> members() {
        return members.values();
    }

    /** A permit of the provider without waiting (another target is tried instead); empty = at its cap. */
    public Optional<PermitLease> permit(Member member) {
        if (permits == null || member.settings().permits() <= 0) {
            return Optional.of(PermitLease.NONE);
        }
        return permits.tryAcquire(member.name(), Duration.ZERO);
    }

    /** Permits of a provider held cluster-wide (0 when it has no own cap). */
    public int permitsInUse(Member member) {
        return permits == null || member.settings().permits() <= 0 ? 0 : permits.inUse(member.name());
    }

    @Override
    public void close() {
        members.values().forEach(m -> m.client().close());
    }
}
