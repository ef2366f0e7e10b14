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
        // replaced whole by reconfigure() (the console's live change); a call reads each once
        private volatile ProviderSettings settings;
        private volatile ProviderRateLimits tokens;
        private volatile ProviderRateLimits requests;
        private volatile ConsecutiveFailureBreaker breaker;
        private volatile boolean enabled = true;
        private final AtomicInteger inFlight = new AtomicInteger();
        private volatile long lowUntilNanos;
        /** Redis prefix of the token window when it is not the provider's own (the short form), else null. */
        private String tokensPrefix;

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

        /** False when an operator took the provider out of every route (its targets are skipped). */
        public boolean enabled() {
            return enabled;
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
    private final RedissonClient redisson;
    private final String keyPrefix;
    private final RedisGuard guard;
    private final IntSupplier knownInstances;
    private final Map<String, ProviderSettings> configured = new LinkedHashMap<>();

    private ProviderPool(Map<String, Member> members, ClusterPermits permits, RedissonClient redisson, String keyPrefix,
            RedisGuard guard, IntSupplier knownInstances) {
        this.members = members;
        this.permits = permits;
        this.redisson = redisson;
        this.keyPrefix = keyPrefix;
        this.guard = guard;
        this.knownInstances = knownInstances;
        members.forEach((name, m) -> configured.put(name, m.settings()));
    }

    /** The settings a provider started with (application.yml). */
    public ProviderSettings configured(String name) {
        get(name);
        return configured.get(name);
    }

    /**
     * Applies new limits to a provider on this instance (the caller validated them; {@code GatewayLiveConfig}
     * carries them to the others). Windows keep their Redis keys, so what was used stays counted; a breaker
     * whose rule changed starts closed; calls in flight finish under the settings they started with.
     *
     * @param resizePermits whether to resize the provider's cluster permits (the instance that made the change)
     */
    public void reconfigure(String name, ProviderSettings next, boolean enabled, boolean resizePermits) {
        Member m = get(name);
        ProviderSettings before = m.settings;
        if (next.tpm() != before.tpm() || !next.tpmWindow().equals(before.tpmWindow())) {
            // the one-provider short form keeps the gateway-wide window's keys
            String prefix = m.tokensPrefix != null ? m.tokensPrefix : keyPrefix + "p:" + name + ":";
            m.tokens = new ProviderRateLimits(redisson, prefix, guard, knownInstances, next.tpm(), next.tpmWindow());
        }
        if (next.rpm() != before.rpm()) {
            m.requests = next.rpm() <= 0 ? null : new ProviderRateLimits(redisson, keyPrefix + "p:" + name + ":rpm:", guard,
                knownInstances, next.rpm(), Duration.ofMinutes(1));
        }
        if (next.breakerFailures() != before.breakerFailures() || !next.breakerOpenFor().equals(before.breakerOpenFor())) {
            m.breaker = new ConsecutiveFailureBreaker("provider " + name + " breaker", next.breakerFailures(),
                next.breakerOpenFor());
        }
        if (resizePermits && next.permits() > 0 && permits != null) {
            permits.resize(name, next.permits());
        }
        m.settings = next;
        m.enabled = enabled;
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
            Member member = new Member(spec.endpoint(), spec.client(), s, tokens, requests);
            member.tokensPrefix = tokens == defaultTokens ? keyPrefix : null;
            members.put(name, member);
            // every provider has a permit lane, so the console may cap one that started without a cap
            permitLanes.put(name, new PermitProperties.Lane(Math.max(1, s.permits()), Duration.ZERO, Duration.ofMinutes(5)));
        }
        ClusterPermits permits = permitLanes.isEmpty() ? null
            : new ClusterPermits(redisson, new PermitProperties(keyPrefix + "provider-permits:", permitLanes), guard,
                knownInstances);
        return new ProviderPool(members, permits, redisson, keyPrefix, guard, knownInstances);
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
