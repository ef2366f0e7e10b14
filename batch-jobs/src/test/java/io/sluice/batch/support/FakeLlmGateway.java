package io.sluice.batch.support;

import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.gateway.LlmStream;
import io.sluice.governance.gateway.LlmStreamListener;

/**
 * Test stand-in for the gateway a teammate is building (not a provider mock): answers from the last
 * user message, counts calls per prompt, and lets a test script refusals, garbage and crashes.
 */
public class FakeLlmGateway implements LlmGateway {

    /** Per-prompt behaviour override; return null for the default answer. */
    private volatile Function<String, LlmOutcome> script = prompt -> null;
    private volatile boolean available = true;
    private volatile long latencyMillis;
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final Queue<Lane> lanes = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    @Override
    public boolean available() {
        return available;
    }

    @Override
    public LlmOutcome call(LlmRequest request) {
        String prompt = request.messages().stream().filter(m -> m.role() == LlmMessage.Role.USER)
            .reduce((a, b) -> b).map(LlmMessage::content).orElse("");
        calls.computeIfAbsent(prompt, k -> new AtomicInteger()).incrementAndGet();
        lanes.add(request.lane());
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        try {
            if (latencyMillis > 0) {
                // simulated provider latency; interruptible like a real call
                new java.util.concurrent.CountDownLatch(1).await(latencyMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
            }
            LlmOutcome scripted = script.apply(prompt);
            if (scripted != null) {
                return scripted;
            }
            return new LlmOutcome.Answered("answer to: " + prompt, "fake-model", 10, 5, 1, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LlmOutcome.Degraded(LlmOutcome.Reason.TIMEOUT, "interrupted");
        } finally {
            inFlight.decrementAndGet();
        }
    }

    @Override
    public LlmStream stream(LlmRequest request, LlmStreamListener listener) {
        throw new UnsupportedOperationException("the batch jobs never stream");
    }

    public void script(Function<String, LlmOutcome> behaviour) {
        this.script = behaviour;
    }

    public void available(boolean value) {
        this.available = value;
    }

    public void latency(Duration latency) {
        this.latencyMillis = latency.toMillis();
    }

    public int calls(String prompt) {
        AtomicInteger n = calls.get(prompt);
        return n == null ? 0 : n.get();
    }

    public Map<String, AtomicInteger> allCalls() {
        return calls;
    }

    public Queue<Lane> lanes() {
        return lanes;
    }

    public int inFlight() {
        return inFlight.get();
    }

    public int maxInFlight() {
        return maxInFlight.get();
    }

    public void reset() {
        script = prompt -> null;
        available = true;
        latencyMillis = 0;
        calls.clear();
        lanes.clear();
        maxInFlight.set(0);
    }
}
