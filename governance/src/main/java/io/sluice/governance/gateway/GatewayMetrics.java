package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Gateway meters, tagged by lane (and model where one is known):
 * {@code sluice.gateway.calls{lane,model,outcome}}, {@code sluice.gateway.latency{lane,model}} (histogram),
 * {@code sluice.gateway.permit.wait{lane}}, {@code sluice.gateway.inflight{lane}},
 * {@code sluice.gateway.permits.used|total{lane}}, {@code sluice.gateway.permits.idle{lane}} (kept by this instance for
 * reuse), {@code sluice.gateway.permits.reused{lane}} (calls that took no Redis round trip for their permit),
 * {@code sluice.gateway.tokens{lane,model,kind}},
 * {@code sluice.gateway.breaker.state{lane}} (0 closed, 1 half-open, 2 open), {@code sluice.gateway.breaker.openings{lane}},
 * {@code sluice.gateway.tpm.remaining}.
 *
 * <p>Outcomes: ok, retried, rate_limited, timeout, breaker_open, fallback_model, degraded, saturated, cancelled.
 */
public final class GatewayMetrics {

    private final MeterRegistry registry;
    private final Map<Lane, AtomicInteger> inFlight = new EnumMap<>(Lane.class);
    /**
     * The per-call meters by name and tag values: a call updates five or six of them, and building each one's id
     * (sorted tags) to find it in the registry every time was about 1 % of a front-door call's CPU.
     */
    private final Map<MeterKey, Meter> perCall = new ConcurrentHashMap<>();

    private record MeterKey(String name, String first, String second, String third) {
    }

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Lane lane : Lane.values()) {
            AtomicInteger counter = new AtomicInteger();
            inFlight.put(lane, counter);
            Gauge.builder("sluice.gateway.inflight", counter, AtomicInteger::get).tag("lane", lane.key())
                .description("calls of the lane in flight on this instance").register(registry);
        }
    }

    public <T> void gauge(String name, Lane lane, T state, ToDoubleFunction<T> value) {
        Gauge.builder(name, state, value).tag("lane", lane.key()).register(registry);
    }

    /** A counter read from {@code state} (monotonic), tagged by lane. */
    public <T> void counter(String name, Lane lane, T state, ToDoubleFunction<T> value) {
        FunctionCounter.builder(name, state, value).tag("lane", lane.key()).register(registry);
    }

    public <T> void gauge(String name, T state, ToDoubleFunction<T> value) {
        Gauge.builder(name, state, value).register(registry);
    }

    /** {@code sluice.gateway.provider.inflight|low|breaker{provider}}. */
    public void providerGauges(io.sluice.governance.provider.ProviderPool.Member member) {
        Gauge.builder("sluice.gateway.provider.inflight", member, m -> m.inFlight()).tag("provider", member.name())
            .register(registry);
        Gauge.builder("sluice.gateway.provider.low", member, m -> m.low() ? 1 : 0).tag("provider", member.name())
            .description("1 while the provider's remaining quota is below its shift threshold").register(registry);
        Gauge.builder("sluice.gateway.provider.breaker", member, m -> m.breaker().state().ordinal())
            .tag("provider", member.name()).description("0 closed, 1 open, 2 half-open").register(registry);
    }

    /** {@code sluice.gateway.embeddings{outcome}}: ok, saturated, rate_limited, failed, timeout, invalid_request. */
    public void embedding(String outcome) {
        Counter.builder("sluice.gateway.embeddings").tag("outcome", outcome)
            .description("calls of the embedding lane by outcome").register(registry).increment();
    }

    /** {@code sluice.gateway.permits.used|total{lane=embedding}}. */
    public void embeddingPermits(io.sluice.governance.permit.ClusterPermits permits, String lane) {
        Gauge.builder("sluice.gateway.permits.used", permits, p -> p.inUse(lane)).tag("lane", lane).register(registry);
        Gauge.builder("sluice.gateway.permits.total", permits, p -> p.size(lane)).tag("lane", lane).register(registry);
    }

    /** {@code sluice.gateway.provider.calls{provider,outcome}}: ok, rate_limited, timeout, failed, invalid_request. */
    public void providerCall(String provider, String outcome) {
        perCall(new MeterKey("sluice.gateway.provider.calls", provider, outcome, null), () -> Counter
            .builder("sluice.gateway.provider.calls").tag("provider", provider).tag("outcome", outcome).register(registry))
            .increment();
    }

    public void started(Lane lane) {
        inFlight.get(lane).incrementAndGet();
    }

    public void ended(Lane lane) {
        inFlight.get(lane).decrementAndGet();
    }

    public void outcome(Lane lane, String model, String outcome) {
        outcome(lane, model, outcome, 1);
    }

    void outcome(Lane lane, String model, String outcome, int count) {
        String modelTag = modelTag(model);
        perCall(new MeterKey("sluice.gateway.calls", lane.key(), modelTag, outcome), () -> Counter
            .builder("sluice.gateway.calls").tag("lane", lane.key()).tag("model", modelTag).tag("outcome", outcome)
            .register(registry)).increment(count);
    }

    public void latency(Lane lane, String model, Duration duration) {
        String modelTag = modelTag(model);
        perCall(new MeterKey("sluice.gateway.latency", lane.key(), modelTag, null), () -> Timer
            .builder("sluice.gateway.latency").tag("lane", lane.key()).tag("model", modelTag).publishPercentileHistogram()
            .register(registry)).record(duration);
    }

    public void permitWait(Lane lane, Duration duration) {
        perCall(new MeterKey("sluice.gateway.permit.wait", lane.key(), null, null), () -> Timer
            .builder("sluice.gateway.permit.wait").tag("lane", lane.key()).register(registry)).record(duration);
    }

    public void tokens(Lane lane, String model, int prompt, int completion) {
        tokenCounter(lane, model, "prompt").increment(prompt);
        tokenCounter(lane, model, "completion").increment(completion);
    }

    private Counter tokenCounter(Lane lane, String model, String kind) {
        return perCall(new MeterKey("sluice.gateway.tokens", lane.key(), model, kind), () -> Counter
            .builder("sluice.gateway.tokens").tag("lane", lane.key()).tag("model", model).tag("kind", kind)
            .register(registry));
    }

    private static String modelTag(String model) {
        return model == null ? "none" : model;
    }

    @SuppressWarnings("unchecked")
    private <M extends Meter> M perCall(MeterKey key, Supplier<M> register) {
        Meter meter = perCall.get(key);
        return meter != null ? (M) meter : (M) perCall.computeIfAbsent(key, k -> register.get());
    }
}
