package io.sluice.governance.gateway;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.sluice.governance.breaker.ConsecutiveFailureBreaker;
import io.sluice.governance.budget.Deadline;
import io.sluice.governance.budget.RetryBudget;
import io.sluice.governance.gateway.LlmOutcome.Reason;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitLease;
import io.sluice.governance.provider.ProviderClient;
import io.sluice.governance.provider.ProviderResult;
import io.sluice.governance.route.ModelRoutes;
import io.sluice.governance.sentinel.SentinelGate;
import io.sluice.governance.tpm.ProviderRateLimits;
import io.sluice.governance.tpm.ProviderRateLimits.Admission;

/**
 * The governed LLM gateway. Per call, in order: the lane's fast-path breaker (no I/O) → a cluster
 * permit (bounded wait) → per model of the fallback chain: the shared 429 cool-down and the token
 * reservation (one Lua script) → Sentinel (local guard, QPS, breaker) → the provider, under the one
 * deadline → settle tokens, sync headers → retry (lane policy, cluster retry budget, inside the
 * deadline) or fall back to the next model → a typed outcome. Nothing provider-related is thrown.
 */
public final class GovernedLlmGateway implements LlmGateway, AutoCloseable {

    /** Cool-down after a 429 without Retry-After. */
    static final Duration DEFAULT_COOL_DOWN = Duration.ofSeconds(1);
    /** The shortest cool-down honoured (a Retry-After of 0 would invite a retry storm). */
    static final Duration MIN_COOL_DOWN = Duration.ofMillis(250);

    private final ProviderClient provider;
    private final ModelRoutes routes;
    private final Map<Lane, LanePolicy> lanes;
    private final ClusterPermits permits;
    private final ProviderRateLimits rateLimits;
    private final RetryBudget retryBudget;
    private final SentinelGate sentinel;
    private final GatewayMetrics metrics;
    private final ScheduledExecutorService timers;
    private final Map<Lane, LlmOutcome.Degraded> breakerOpen = new java.util.EnumMap<>(Lane.class);

    public GovernedLlmGateway(ProviderClient provider, ModelRoutes routes, Map<Lane, LanePolicy> lanes,
            ClusterPermits permits, ProviderRateLimits rateLimits, RetryBudget retryBudget, SentinelGate sentinel,
            GatewayMetrics metrics) {
        this.provider = provider;
        this.routes = routes;
        this.lanes = Map.copyOf(lanes);
        this.permits = permits;
        this.rateLimits = rateLimits;
        this.retryBudget = retryBudget;
        this.sentinel = sentinel;
        this.metrics = metrics;
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-gateway-timers");
            t.setDaemon(true);
            return t;
        });
        for (LanePolicy policy : this.lanes.values()) {
            breakerOpen.put(policy.lane(), new LlmOutcome.Degraded(Reason.BREAKER_OPEN,
                policy.lane().key() + " lane breaker is open: skipping the LLM"));
            metrics.outcome(policy.lane(), null, "breaker_open", 0); // registered up front, off the fast path
            metrics.gauge("sluice.gateway.permits.total", policy.lane(), permits, p -> p.size(policy.lane().key()));
            metrics.gauge("sluice.gateway.permits.used", policy.lane(), permits, p -> p.inUse(policy.lane().key()));
            if (policy.breaker() != null) {
                metrics.gauge("sluice.gateway.breaker.state", policy.lane(), policy.breaker(), b -> b.state().ordinal() == 0 ? 0
                    : b.state() == ConsecutiveFailureBreaker.State.HALF_OPEN ? 1 : 2);
                metrics.counter("sluice.gateway.breaker.openings", policy.lane(), policy.breaker(),
                    ConsecutiveFailureBreaker::openings);
            }
        }
        metrics.gauge("sluice.gateway.tpm.remaining", rateLimits, r -> r.limit() <= 0 ? -1 : r.remaining());
    }

    @Override
    public boolean available() {
        return true;
    }

    /** The lane's fast-path breaker state (CLOSED when the lane has none). */
    public ConsecutiveFailureBreaker.State breakerState(Lane lane) {
        ConsecutiveFailureBreaker breaker = policy(lane).breaker();
        return breaker == null ? ConsecutiveFailureBreaker.State.CLOSED : breaker.state();
    }

    @Override
    public LlmOutcome call(LlmRequest request) {
        LanePolicy lane = policy(request.lane());
        long started = System.nanoTime();
        Deadline deadline = Deadline.after(request.budget() != null ? request.budget() : lane.budget());
        ConsecutiveFailureBreaker breaker = lane.breaker();
        if (breaker != null && !breaker.tryAcquire()) {
            // the fast path: no I/O, nothing built — a dead dependency costs microseconds
            metrics.outcome(lane.lane(), null, "breaker_open");
            return breakerOpen.get(lane.lane());
        }
        Optional<PermitLease> permit = acquire(lane, deadline);
        if (permit.isEmpty()) {
            if (breaker != null) {
                breaker.onIgnored();
            }
            metrics.outcome(lane.lane(), null, "saturated");
            return new LlmOutcome.Saturated(lane.lane(), null,
                "no " + lane.lane().key() + " permit within " + deadline.cap(lane.permitWait()).toMillis() + " ms");
        }
        metrics.started(lane.lane());
        try (PermitLease ignored = permit.get()) {
            Attempts attempts = new Attempts(lane, request, deadline);
            LlmOutcome outcome = attempts.run();
            if (breaker != null && !attempts.breakerTold) {
                breaker.onIgnored(); // refused by us or rate-limited: says nothing about the provider's health
            }
            metrics.latency(lane.lane(), attempts.model, Duration.ofNanos(System.nanoTime() - started));
            return outcome;
        } finally {
            metrics.ended(lane.lane());
        }
    }

    private Optional<PermitLease> acquire(LanePolicy lane, Deadline deadline) {
        long waitStart = System.nanoTime();
        Optional<PermitLease> permit = permits.tryAcquire(lane.lane().key(), deadline.cap(lane.permitWait()));
        metrics.permitWait(lane.lane(), Duration.ofNanos(System.nanoTime() - waitStart));
        return permit;
    }

    /** The attempts of one blocking call: models of the chain in order, retries of each inside the deadline. */
    private final class Attempts {
        private final LanePolicy lane;
        private final LlmRequest request;
        private final Deadline deadline;
        private final int estimate;
        private int attempts;
        private int rateLimitedRounds;
        private boolean breakerTold;
        private String model;
        private Reason lastReason = Reason.PROVIDER_ERROR;
        private String lastDetail = "no model could be tried";

        Attempts(LanePolicy lane, LlmRequest request, Deadline deadline) {
            this.lane = lane;
            this.request = request;
            this.deadline = deadline;
            this.estimate = TokenEstimate.of(request);
        }

        LlmOutcome run() {
            List<String> chain = routes.chain(request.route() != null ? request.route() : lane.route());
            retryBudget.recordCall();
            for (int m = 0; m < chain.size(); m++) {
                model = chain.get(m);
                boolean fallback = m > 0;
                if (fallback) {
                    metrics.outcome(lane.lane(), model, "fallback_model");
                }
                int retries = 0;
                while (true) {
                    if (deadline.expired()) {
                        return degraded(lastReason == Reason.TIMEOUT ? Reason.TIMEOUT : Reason.BUDGET_EXHAUSTED,
                            "the " + lane.lane().key() + " budget ran out (" + lastDetail + ")");
                    }
                    Admission admission = rateLimits.reserve(model, estimate);
                    if (admission instanceof Admission.CoolingDown cooling) {
                        if (canWait(cooling.remaining())) {
                            pause(cooling.remaining());
                            continue;
                        }
                        metrics.outcome(lane.lane(), model, "rate_limited");
                        return new LlmOutcome.Saturated(lane.lane(), cooling.remaining(),
                            "provider rate limit: shared cool-down of model '" + model + "'");
                    }
                    if (admission instanceof Admission.Refused refused) {
                        if (canWait(refused.retryIn())) {
                            pause(refused.retryIn());
                            continue;
                        }
                        metrics.outcome(lane.lane(), model, "saturated");
                        return new LlmOutcome.Saturated(lane.lane(), refused.retryIn(), refused.reason());
                    }
                    Admission.Admitted admitted = (Admission.Admitted) admission;
                    SentinelGate.Decision decision = sentinel.enter(lane.lane(), model);
                    if (decision instanceof SentinelGate.Decision.Refused refusedLocally) {
                        rateLimits.settle(admitted, 0);
                        metrics.outcome(lane.lane(), model, "saturated");
                        return new LlmOutcome.Saturated(lane.lane(), null, "local guard refused " + refusedLocally.resource()
                            + " (" + refusedLocally.rule() + ")");
                    }
                    if (decision instanceof SentinelGate.Decision.BreakerOpen open) {
                        rateLimits.settle(admitted, 0);
                        lastReason = Reason.BREAKER_OPEN;
                        lastDetail = "breaker open for " + open.resource();
                        metrics.outcome(lane.lane(), model, "breaker_open");
                        break; // next model
                    }
                    SentinelGate.Decision.Pass pass = (SentinelGate.Decision.Pass) decision;
                    attempts++;
                    ProviderResult result = provider.call(routes.providerModel(model), request.messages(),
                        request.maxTokens(), deadline.remaining());
                    settleThenSync(admitted, result);
                    if (result instanceof ProviderResult.Answered answered) {
                        String problem = request.check().problem(answered.text());
                        metrics.tokens(lane.lane(), model, answered.promptTokens(), answered.completionTokens());
                        if (problem == null) {
                            pass.success();
                            breakerSuccess();
                            metrics.outcome(lane.lane(), model, "ok");
                            return new LlmOutcome.Answered(answered.text(), routes.providerModel(model),
                                answered.promptTokens(), answered.completionTokens(), attempts, fallback);
                        }
                        pass.failure(problem);
                        failed(Reason.UNPARSABLE, "unusable answer: " + problem);
                    } else if (result instanceof ProviderResult.RateLimited limited) {
                        pass.success(); // a rate signal, not a failure: the breaker does not count it
                        Duration retryAfter = limited.retryAfter();
                        if (retryAfter == null || retryAfter.compareTo(MIN_COOL_DOWN) < 0) {
                            // no (or a zero) Retry-After: still back off, or every caller would hammer the provider
                            retryAfter = limited.retryAfter() == null ? DEFAULT_COOL_DOWN : MIN_COOL_DOWN;
                            rateLimits.coolDown(model, retryAfter);
                        } // with Retry-After, settleAndSync() already started the shared cool-down
                        metrics.outcome(lane.lane(), model, "rate_limited");
                        if (canWait(retryAfter) && rateLimitedRounds++ <= lane.retry().retries()) {
                            continue; // the next round waits out the cool-down (pacing, bounded)
                        }
                        return new LlmOutcome.Saturated(lane.lane(), retryAfter, "provider answered 429 for model '"
                            + model + "', retry after " + retryAfter.toMillis() + " ms");
                    } else {
                        ProviderResult.Failed failure = (ProviderResult.Failed) result;
                        pass.failure(failure.kind().name());
                        failed(reason(failure.kind()), failure.kind() + ": " + failure.detail());
                    }
                    if (!mayRetry(retries)) {
                        break; // next model; it never restarts this model's retries
                    }
                    retries++;
                    metrics.outcome(lane.lane(), model, "retried");
                    pause(lane.retry().backoffBefore(retries - 1));
                }
            }
            return degraded(lastReason, lastDetail);
        }

        private boolean canWait(Duration wait) {
            return wait.compareTo(lane.rateLimitWait()) <= 0 && wait.compareTo(deadline.remaining()) < 0;
        }

        private boolean mayRetry(int retriesSoFar) {
            if (retriesSoFar >= lane.retry().retries() || deadline.expired()) {
                return false;
            }
            if (lane.breaker() != null && lane.breaker().state() == ConsecutiveFailureBreaker.State.OPEN) {
                return false;
            }
            if (lane.retry().backoffBefore(retriesSoFar).compareTo(deadline.remaining()) >= 0) {
                return false;
            }
            return retryBudget.tryRetry();
        }

        private void failed(Reason reason, String detail) {
            lastReason = reason;
            lastDetail = detail;
            if (lane.breaker() != null) {
                lane.breaker().onFailure();
            }
            metrics.outcome(lane.lane(), model, reason == Reason.TIMEOUT ? "timeout" : "failed");
            breakerTold = true;
        }

        private void breakerSuccess() {
            if (lane.breaker() != null) {
                lane.breaker().onSuccess();
            }
            breakerTold = true;
        }

        /**
         * Settles the reservation to what the attempt cost (429: nothing; timeout: all of it, the
         * provider may still be working; other failures: the prompt), then syncs the bucket from
         * the provider's headers — in that order, so the headers are compared with settled usage.
         */
        private void settleThenSync(Admission.Admitted admitted, ProviderResult result) {
            long tokens;
            if (result instanceof ProviderResult.Answered answered) {
                long used = answered.promptTokens() + answered.completionTokens();
                tokens = used > 0 ? used : admitted.tokens();
            } else if (result instanceof ProviderResult.RateLimited) {
                tokens = 0;
            } else if (((ProviderResult.Failed) result).kind() == ProviderResult.Kind.TIMEOUT) {
                tokens = admitted.tokens();
            } else {
                tokens = TokenEstimate.prompt(request.messages());
            }
            rateLimits.settleAndSync(model, admitted, tokens, result.rateLimit());
        }

        private LlmOutcome degraded(Reason reason, String detail) {
            metrics.outcome(lane.lane(), model, "degraded");
            return new LlmOutcome.Degraded(reason, detail);
        }

        private void pause(Duration wait) {
            if (wait.isZero() || wait.isNegative()) {
                return;
            }
            try {
                Thread.sleep(deadline.cap(wait).toMillis()); // backoff / pacing inside the budget
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Reason reason(ProviderResult.Kind kind) {
        return switch (kind) {
            case TIMEOUT -> Reason.TIMEOUT;
            case UNPARSABLE -> Reason.UNPARSABLE;
            case SERVER_ERROR, CLIENT_ERROR, IO -> Reason.PROVIDER_ERROR;
        };
    }

    // ------------------------------------------------------------------ streaming

    @Override
    public LlmStream stream(LlmRequest request, LlmStreamListener listener) {
        LanePolicy lane = policy(request.lane());
        Deadline deadline = Deadline.after(request.budget() != null ? request.budget() : lane.budget());
        ConsecutiveFailureBreaker breaker = lane.breaker();
        if (breaker != null && !breaker.tryAcquire()) {
            metrics.outcome(lane.lane(), null, "breaker_open");
            return ended(listener, new LlmOutcome.Degraded(Reason.BREAKER_OPEN, lane.lane().key() + " lane breaker is open"));
        }
        Optional<PermitLease> permit = acquire(lane, deadline);
        if (permit.isEmpty()) {
            if (breaker != null) {
                breaker.onIgnored();
            }
            metrics.outcome(lane.lane(), null, "saturated");
            return ended(listener, new LlmOutcome.Saturated(lane.lane(), null, "no " + lane.lane().key() + " permit in time"));
        }
        int estimate = TokenEstimate.of(request);
        LlmOutcome refusal = new LlmOutcome.Degraded(Reason.PROVIDER_ERROR, "no model could be tried");
        for (String model : routes.chain(request.route() != null ? request.route() : lane.route())) {
            Admission admission = rateLimits.reserve(model, estimate);
            if (admission instanceof Admission.CoolingDown cooling) {
                refusal = new LlmOutcome.Saturated(lane.lane(), cooling.remaining(), "provider rate limit: shared cool-down");
                break;
            }
            if (admission instanceof Admission.Refused refused) {
                refusal = new LlmOutcome.Saturated(lane.lane(), refused.retryIn(), refused.reason());
                break;
            }
            Admission.Admitted admitted = (Admission.Admitted) admission;
            SentinelGate.Decision decision = sentinel.enter(lane.lane(), model);
            if (decision instanceof SentinelGate.Decision.Pass pass) {
                StreamCall call = new StreamCall(lane, request, model, permit.get(), admitted, pass, listener);
                call.start(deadline);
                return call;
            }
            rateLimits.settle(admitted, 0);
            if (decision instanceof SentinelGate.Decision.Refused refusedLocally) {
                refusal = new LlmOutcome.Saturated(lane.lane(), null, "local guard refused " + refusedLocally.resource());
                break;
            }
            refusal = new LlmOutcome.Degraded(Reason.BREAKER_OPEN, "breaker open for " + model);
        }
        permit.get().close();
        if (breaker != null) {
            breaker.onIgnored();
        }
        metrics.outcome(lane.lane(), null, refusal instanceof LlmOutcome.Saturated ? "saturated" : "degraded");
        return ended(listener, refusal);
    }

    private static LlmStream ended(LlmStreamListener listener, LlmOutcome outcome) {
        listener.onEnd(outcome);
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

    /**
     * One running stream. Whatever ends it first — completion, error, provider cut, first-token
     * timeout, cancel — releases the permit, exits Sentinel and settles tokens, exactly once. While it
     * runs, the permit's lease is renewed, so a long stream keeps its permit and a dead instance's
     * stream loses it after one lease.
     */
    private final class StreamCall implements LlmStream, ProviderClient.StreamHandler {
        private final LanePolicy lane;
        private final LlmRequest request;
        private final String model;
        private final PermitLease permit;
        private final Admission.Admitted admitted;
        private final SentinelGate.Decision.Pass pass;
        private final LlmStreamListener listener;
        private final AtomicBoolean done = new AtomicBoolean();
        private final StringBuilder text = new StringBuilder();
        private final long started = System.nanoTime();
        private volatile boolean firstToken;
        private volatile ProviderClient.Cancellable upstream;
        private ScheduledFuture<?> firstTokenTimer;
        private ScheduledFuture<?> renewal;

        StreamCall(LanePolicy lane, LlmRequest request, String model, PermitLease permit, Admission.Admitted admitted,
                SentinelGate.Decision.Pass pass, LlmStreamListener listener) {
            this.lane = lane;
            this.request = request;
            this.model = model;
            this.permit = permit;
            this.admitted = admitted;
            this.pass = pass;
            this.listener = listener;
        }

        void start(Deadline deadline) {
            metrics.started(lane.lane());
            Duration lease = permits.lease(lane.lane().key());
            long renewEvery = Math.max(100, lease.toMillis() / 3);
            renewal = timers.scheduleWithFixedDelay(() -> permit.renew(lease), renewEvery, renewEvery, TimeUnit.MILLISECONDS);
            firstTokenTimer = timers.schedule(() -> {
                if (!firstToken) {
                    abort(new LlmOutcome.Degraded(Reason.TIMEOUT, "no token within the " + lane.lane().key() + " budget"),
                        "timeout", true);
                }
            }, Math.max(1, deadline.remaining().toMillis()), TimeUnit.MILLISECONDS);
            try {
                upstream = provider.stream(routes.providerModel(model), request.messages(), request.maxTokens(), this);
            } catch (RuntimeException e) {
                onError(new ProviderResult.Failed(ProviderResult.Kind.IO, String.valueOf(e.getMessage()), null));
            }
            if (done.get() && upstream != null) {
                upstream.cancel();
            }
        }

        @Override
        public void onToken(String token) {
            if (done.get()) {
                return;
            }
            firstToken = true;
            synchronized (text) {
                text.append(token);
            }
            listener.onToken(token);
        }

        @Override
        public void onComplete(int promptTokens, int completionTokens, boolean finished) {
            if (!finished) {
                abort(new LlmOutcome.Degraded(Reason.PROVIDER_ERROR, "the provider cut the stream midway"), "degraded", true);
                return;
            }
            if (end(promptTokens + completionTokens, true, "ok", null)) {
                breakerSuccess();
                metrics.tokens(lane.lane(), model, promptTokens, completionTokens);
                String answer;
                synchronized (text) {
                    answer = text.toString();
                }
                listener.onComplete(new LlmOutcome.Answered(answer, routes.providerModel(model), promptTokens,
                    completionTokens, 1, !model.equals(lane.route())));
            }
        }

        @Override
        public void onError(ProviderResult failure) {
            if (failure instanceof ProviderResult.RateLimited limited) {
                Duration retryAfter = limited.retryAfter() == null ? DEFAULT_COOL_DOWN
                    : limited.retryAfter().compareTo(MIN_COOL_DOWN) < 0 ? MIN_COOL_DOWN : limited.retryAfter();
                rateLimits.coolDown(model, retryAfter);
                if (end(0, true, "rate_limited", null)) {
                    ignoredByBreaker();
                    listener.onEnd(new LlmOutcome.Saturated(lane.lane(), retryAfter, "provider answered 429"));
                }
                return;
            }
            ProviderResult.Failed failed = (ProviderResult.Failed) failure;
            abort(new LlmOutcome.Degraded(reason(failed.kind()), failed.kind() + ": " + failed.detail()),
                failed.kind() == ProviderResult.Kind.TIMEOUT ? "timeout" : "degraded", false);
        }

        @Override
        public void cancel() {
            if (end(admitted.tokens(), true, "cancelled", upstream)) {
                ignoredByBreaker();
                listener.onEnd(new LlmOutcome.Degraded(Reason.PROVIDER_ERROR, "stream cancelled by the caller"));
            }
        }

        @Override
        public boolean finished() {
            return done.get();
        }

        private void abort(LlmOutcome.Degraded outcome, String metric, boolean cancelUpstream) {
            if (end(admitted.tokens(), false, metric, cancelUpstream ? upstream : null)) {
                if (lane.breaker() != null) {
                    lane.breaker().onFailure();
                }
                pass.failure(outcome.detail());
                listener.onEnd(outcome);
            }
        }

        /** Releases everything exactly once; true for the caller that did it. */
        private boolean end(long tokens, boolean success, String metric, ProviderClient.Cancellable toCancel) {
            if (!done.compareAndSet(false, true)) {
                return false;
            }
            if (firstTokenTimer != null) {
                firstTokenTimer.cancel(false);
            }
            if (renewal != null) {
                renewal.cancel(false);
            }
            if (toCancel != null) {
                toCancel.cancel();
            }
            if (success) {
                pass.success();
            }
            permit.close();
            rateLimits.settle(admitted, tokens > 0 ? tokens : admitted.tokens());
            metrics.ended(lane.lane());
            metrics.outcome(lane.lane(), model, metric);
            metrics.latency(lane.lane(), model, Duration.ofNanos(System.nanoTime() - started));
            return true;
        }

        private void breakerSuccess() {
            if (lane.breaker() != null) {
                lane.breaker().onSuccess();
            }
        }

        private void ignoredByBreaker() {
            if (lane.breaker() != null) {
                lane.breaker().onIgnored();
            }
        }
    }

    private LanePolicy policy(Lane lane) {
        LanePolicy policy = lanes.get(lane);
        if (policy == null) {
            throw new IllegalArgumentException("lane '" + lane.key() + "' is not configured");
        }
        return policy;
    }

    @Override
    public void close() {
        timers.shutdownNow();
    }
}
