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
import io.sluice.governance.provider.ProviderPool;
import io.sluice.governance.route.ModelRoutes;
import io.sluice.governance.route.TargetOrder;
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

    private final ProviderPool providers;
    private volatile ModelRoutes routes; // replaced whole by a live route change (GatewayLiveConfig)
    private final Map<Lane, LanePolicy> lanes;
    private final ClusterPermits permits;
    private final RetryBudget retryBudget;
    private final SentinelGate sentinel;
    private final GatewayMetrics metrics;
    private final ScheduledExecutorService timers;
    private final Map<Lane, LlmOutcome.Degraded> breakerOpen = new java.util.EnumMap<>(Lane.class);

    public GovernedLlmGateway(ProviderPool providers, ModelRoutes routes, Map<Lane, LanePolicy> lanes,
            ClusterPermits permits, RetryBudget retryBudget, SentinelGate sentinel, GatewayMetrics metrics) {
        this.providers = providers;
        this.routes = routes;
        this.lanes = Map.copyOf(lanes);
        this.permits = permits;
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
            metrics.gauge("sluice.gateway.permits.idle", policy.lane(), permits, p -> p.idle(policy.lane().key()));
            metrics.counter("sluice.gateway.permits.reused", policy.lane(), permits, p -> p.reused(policy.lane().key()));
            if (policy.breaker() != null) {
                metrics.gauge("sluice.gateway.breaker.state", policy.lane(), policy.breaker(), b -> b.state().ordinal() == 0 ? 0
                    : b.state() == ConsecutiveFailureBreaker.State.HALF_OPEN ? 1 : 2);
                metrics.counter("sluice.gateway.breaker.openings", policy.lane(), policy.breaker(),
                    ConsecutiveFailureBreaker::openings);
            }
        }
        // releases Redis did not take, waiting for their retry: above 0 for long means permits held for nothing
        metrics.gauge("sluice.gateway.permits.releases.pending", permits, ClusterPermits::pendingReleases);
        ProviderPool.Member first = providers.members().iterator().next();
        // read through the member: a live change replaces its window
        metrics.gauge("sluice.gateway.tpm.remaining", first, m -> m.tokens().limit() <= 0 ? -1 : m.tokens().remaining());
        for (ProviderPool.Member member : providers.members()) {
            metrics.providerGauges(member);
        }
    }

    /** The routes this gateway serves (names clients may use, targets). */
    public ModelRoutes routes() {
        return routes;
    }

    /** Serves the given routes from now on (validated by the caller; same route keys as before). */
    void routes(ModelRoutes next) {
        this.routes = next;
    }

    public ProviderPool providers() {
        return providers;
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

    // ------------------------------------------------------------------ token allocation by request type

    private volatile io.sluice.governance.allocation.TokenAllocation allocation;

    /** Allocates this gateway's tokens by request type from now on (null = no allocation). */
    public void useAllocation(io.sluice.governance.allocation.TokenAllocation allocation) {
        this.allocation = allocation;
    }

    public io.sluice.governance.allocation.TokenAllocation allocation() {
        return allocation;
    }

    /** A request that the allocation admitted (perhaps a stepped-down one), or the refusal to return. */
    private record Allotted(LlmRequest request, io.sluice.governance.allocation.TokenAllocation.Grant grant,
            boolean steppedDown, LlmOutcome refusal) {
    }

    /**
     * Asks the allocation for the call's estimate; a call that does not fit steps down once — the
     * step-down route (cheaper, light) with a short completion cap — before it is refused as
     * {@code Saturated} (the chat then steps down a tier, batch work is put back).
     */
    private Allotted allot(io.sluice.governance.allocation.TokenAllocation allocation, LlmRequest request) {
        var grant = allocation.admit(request.type(), TokenEstimate.of(request));
        if (grant instanceof io.sluice.governance.allocation.TokenAllocation.Grant.Admitted) {
            return new Allotted(request, grant, false, null);
        }
        var refused = (io.sluice.governance.allocation.TokenAllocation.Grant.Refused) grant;
        String lighter = allocation.properties().stepDownRoute();
        String asked = request.route() != null ? request.route() : policy(request.lane()).route();
        int cap = allocation.properties().stepDownMaxTokens();
        if (!lighter.isEmpty() && routes.contains(lighter) && (!lighter.equals(asked) || request.maxTokens() > cap)) {
            LlmRequest stepped = request.withRoute(lighter).withMaxTokens(Math.min(cap, request.maxTokens()));
            var second = allocation.admit(stepped.type(), TokenEstimate.of(stepped));
            if (second instanceof io.sluice.governance.allocation.TokenAllocation.Grant.Admitted) {
                allocation.steppedDown(request.type());
                return new Allotted(stepped, second, true, null);
            }
        }
        metrics.outcome(request.lane(), null, "allocation_refused");
        return new Allotted(request, grant, false, new LlmOutcome.Saturated(request.lane(), refused.retryIn(), refused.reason()));
    }

    /** Tokens a call's outcome used for the allocation: its usage, else its prompt when a provider may have worked on it. */
    private static long used(LlmRequest request, LlmOutcome outcome) {
        if (outcome instanceof LlmOutcome.Answered a) {
            long used = (long) a.promptTokens() + a.completionTokens();
            return used > 0 ? used : TokenEstimate.of(request);
        }
        if (outcome instanceof LlmOutcome.Degraded d && (d.reason() == Reason.TIMEOUT || d.reason() == Reason.PROVIDER_ERROR
                || d.reason() == Reason.UNPARSABLE)) {
            return TokenEstimate.prompt(request.messages());
        }
        return 0;
    }

    /** A stepped-down answer came from another route than the one asked for: it says so, as a fallback does. */
    private static LlmOutcome markStepped(LlmOutcome outcome) {
        if (outcome instanceof LlmOutcome.Answered a && !a.fallbackModel()) {
            return new LlmOutcome.Answered(a.text(), a.model(), a.promptTokens(), a.completionTokens(), a.attempts(), true,
                a.choices(), a.provider());
        }
        return outcome;
    }

    @Override
    public LlmOutcome call(LlmRequest request) {
        var allocation = this.allocation;
        if (allocation == null) {
            return governedCall(request);
        }
        Allotted allotted = allot(allocation, request);
        if (allotted.refusal() != null) {
            return allotted.refusal();
        }
        LlmOutcome outcome;
        try {
            outcome = governedCall(allotted.request());
        } catch (RuntimeException e) {
            allocation.settle(allotted.grant(), TokenEstimate.of(allotted.request()));
            throw e;
        }
        allocation.settle(allotted.grant(), used(allotted.request(), outcome));
        return allotted.steppedDown() ? markStepped(outcome) : outcome;
    }

    private LlmOutcome governedCall(LlmRequest request) {
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
                while (true) {
                    Duration coolest = null; // shortest wait until a rate-limited target takes calls again
                    String refusal = null;
                    boolean refusedOnly = true; // every target refused by limits (not by failures)
                    List<ModelRoutes.Target> order = TargetOrder.order(routes.targets(model), providers::get);
                    for (int t = 0; t < order.size(); t++) {
                        if (deadline.expired()) {
                            return degraded(lastReason == Reason.TIMEOUT ? Reason.TIMEOUT : Reason.BUDGET_EXHAUSTED,
                                "the " + lane.lane().key() + " budget ran out (" + lastDetail + ")");
                        }
                        ModelRoutes.Target target = order.get(t);
                        ProviderPool.Member provider = providers.get(target.provider());
                        boolean moreTargets = t < order.size() - 1;
                        TargetResult result = tryTarget(target, provider, moreTargets, fallback);
                        switch (result) {
                            case TargetResult.Done done -> {
                                return done.outcome();
                            }
                            case TargetResult.Limited limited -> {
                                if (limited.retryIn() != null) {
                                    coolest = coolest == null || limited.retryIn().compareTo(coolest) < 0
                                        ? limited.retryIn() : coolest;
                                }
                                refusal = limited.reason();
                            }
                            case TargetResult.Failed failed -> refusedOnly = false;
                        }
                        if (t > 0 || moreTargets) {
                            metrics.outcome(lane.lane(), model, "failover");
                        }
                    }
                    if (refusedOnly && refusal != null) {
                        // every target is cooling down or out of budget: pace (batch) or say when to come back
                        if (coolest != null && canWait(coolest) && rateLimitedRounds++ <= lane.retry().retries()) {
                            pause(coolest);
                            continue;
                        }
                        metrics.outcome(lane.lane(), model, "rate_limited");
                        return new LlmOutcome.Saturated(lane.lane(), coolest, refusal);
                    }
                    break; // next route of the chain
                }
            }
            return degraded(lastReason, lastDetail);
        }

        /** What trying one target came to. */
        private sealed interface TargetResult {
            record Done(LlmOutcome outcome) implements TargetResult {
            }

            /** Refused by a limit (cool-down, token/request budget, provider permits): says nothing of its health. */
            record Limited(Duration retryIn, String reason) implements TargetResult {
            }

            /** Failed (5xx, timeout, open breaker, unusable) after its retries. */
            record Failed() implements TargetResult {
            }
        }

        private TargetResult tryTarget(ModelRoutes.Target target, ProviderPool.Member provider, boolean moreTargets,
                boolean fallback) {
            if (!provider.breaker().tryAcquire()) {
                lastReason = Reason.BREAKER_OPEN;
                lastDetail = "breaker open for provider " + provider.name();
                metrics.outcome(lane.lane(), model, "breaker_open");
                return new TargetResult.Failed();
            }
            boolean told = false;
            try {
                int retries = 0;
                while (true) {
                    Admission admission = provider.tokens().reserve(target.key(), estimate);
                    if (admission instanceof Admission.CoolingDown cooling) {
                        return new TargetResult.Limited(cooling.remaining(),
                            "provider rate limit: shared cool-down of " + provider.name() + " (model '" + model + "')");
                    }
                    if (admission instanceof Admission.Refused refused) {
                        return new TargetResult.Limited(refused.retryIn(), refused.reason());
                    }
                    Admission.Admitted admitted = (Admission.Admitted) admission;
                    Admission.Admitted request1 = null;
                    if (provider.requests() != null) {
                        Admission rpm = provider.requests().reserve(target.key(), 1);
                        if (!(rpm instanceof Admission.Admitted a)) {
                            provider.tokens().settle(admitted, 0);
                            return new TargetResult.Limited(rpm instanceof Admission.Refused r ? r.retryIn() : null,
                                "requests per minute of provider " + provider.name() + " spent");
                        }
                        request1 = a;
                    }
                    Optional<PermitLease> providerPermit = providers.permit(provider);
                    if (providerPermit.isEmpty()) {
                        provider.tokens().settle(admitted, 0);
                        if (request1 != null) {
                            provider.requests().settle(request1, 0);
                        }
                        return new TargetResult.Limited(null, "provider " + provider.name() + " is at its permits");
                    }
                    SentinelGate.Decision decision = sentinel.enter(lane.lane(), model);
                    if (decision instanceof SentinelGate.Decision.Refused refusedLocally) {
                        provider.tokens().settle(admitted, 0);
                        providerPermit.get().close();
                        metrics.outcome(lane.lane(), model, "saturated");
                        return new TargetResult.Done(new LlmOutcome.Saturated(lane.lane(), null, "local guard refused "
                            + refusedLocally.resource() + " (" + refusedLocally.rule() + ")"));
                    }
                    if (decision instanceof SentinelGate.Decision.BreakerOpen open) {
                        provider.tokens().settle(admitted, 0);
                        providerPermit.get().close();
                        lastReason = Reason.BREAKER_OPEN;
                        lastDetail = "breaker open for " + open.resource();
                        metrics.outcome(lane.lane(), model, "breaker_open");
                        return new TargetResult.Failed();
                    }
                    SentinelGate.Decision.Pass pass = (SentinelGate.Decision.Pass) decision;
                    attempts++;
                    ProviderResult result;
                    provider.started();
                    try (PermitLease ignored = providerPermit.get()) {
                        result = provider.client().call(new ProviderClient.Call(target.model(), request.messages(),
                            request.maxTokens(), request.parameters()), attemptTimeout(provider, moreTargets));
                    } finally {
                        provider.ended();
                    }
                    settleThenSync(provider, target, admitted, result);
                    provider.observe(result.rateLimit());
                    var allocation = GovernedLlmGateway.this.allocation;
                    if (allocation != null) {
                        allocation.observe(provider.name(), result.rateLimit());
                    }
                    if (result instanceof ProviderResult.Answered answered) {
                        // a model that answers with tool calls has no text to check
                        String problem = answered.choices().get(0).toolCalls() != null ? null
                            : request.check().problem(answered.text());
                        metrics.tokens(lane.lane(), model, answered.promptTokens(), answered.completionTokens());
                        if (problem == null) {
                            pass.success();
                            breakerSuccess();
                            provider.breaker().onSuccess();
                            told = true;
                            metrics.outcome(lane.lane(), model, "ok");
                            metrics.providerCall(provider.name(), "ok");
                            return new TargetResult.Done(new LlmOutcome.Answered(answered.text(), target.model(),
                                answered.promptTokens(), answered.completionTokens(), attempts, fallback, answered.choices(),
                                provider.name()));
                        }
                        pass.failure(problem);
                        failed(Reason.UNPARSABLE, "unusable answer: " + problem);
                    } else if (result instanceof ProviderResult.RateLimited limited) {
                        pass.success(); // a rate signal, not a failure: no breaker counts it
                        Duration retryAfter = limited.retryAfter();
                        if (retryAfter == null || retryAfter.compareTo(MIN_COOL_DOWN) < 0) {
                            // no (or a zero) Retry-After: still back off, or every caller would hammer the provider
                            retryAfter = limited.retryAfter() == null ? DEFAULT_COOL_DOWN : MIN_COOL_DOWN;
                            provider.tokens().coolDown(target.key(), retryAfter);
                        } // with Retry-After, settleAndSync() already started the shared cool-down
                        metrics.outcome(lane.lane(), model, "rate_limited");
                        metrics.providerCall(provider.name(), "rate_limited");
                        return new TargetResult.Limited(retryAfter, "provider " + provider.name() + " answered 429 for model '"
                            + model + "', retry after " + retryAfter.toMillis() + " ms");
                    } else {
                        ProviderResult.Failed failure = (ProviderResult.Failed) result;
                        if (failure.kind() == ProviderResult.Kind.INVALID_REQUEST) {
                            pass.success(); // the request, not the provider: no other provider would take it
                            metrics.outcome(lane.lane(), model, "invalid_request");
                            metrics.providerCall(provider.name(), "invalid_request");
                            return new TargetResult.Done(new LlmOutcome.Degraded(Reason.INVALID_REQUEST, failure.detail()));
                        }
                        pass.failure(failure.kind().name());
                        provider.breaker().onFailure();
                        told = true;
                        metrics.providerCall(provider.name(), failure.kind() == ProviderResult.Kind.TIMEOUT ? "timeout" : "failed");
                        failed(reason(failure.kind()), (providers.members().size() > 1 ? provider.name() + " " : "")
                            + failure.kind() + ": " + failure.detail());
                    }
                    if (!mayRetry(retries)) {
                        return new TargetResult.Failed(); // next target; it never restarts this one's retries
                    }
                    retries++;
                    metrics.outcome(lane.lane(), model, "retried");
                    pause(lane.retry().backoffBefore(retries - 1));
                    if (!provider.breaker().tryAcquire()) {
                        return new TargetResult.Failed();
                    }
                }
            } finally {
                if (!told) {
                    provider.breaker().onIgnored();
                }
            }
        }

        /**
         * One attempt's share of the deadline: the provider's own timeout if set; while another target
         * could still answer, at most half of what is left, so a slow or hung provider leaves time to fail over.
         */
        private Duration attemptTimeout(ProviderPool.Member provider, boolean moreTargets) {
            Duration left = deadline.remaining();
            Duration cap = provider.settings().timeout();
            if (cap == null && moreTargets) {
                cap = left.dividedBy(2);
            }
            return cap == null || cap.compareTo(left) > 0 ? left : cap;
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
        private void settleThenSync(ProviderPool.Member provider, ModelRoutes.Target target, Admission.Admitted admitted,
                ProviderResult result) {
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
            provider.tokens().settleAndSync(target.key(), admitted, tokens, result.rateLimit());
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
                pauses.pause(deadline.cap(wait)); // backoff / pacing inside the budget
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How the gateway waits between attempts (backoff, pacing): a sleep; tests record the schedule instead. */
    @FunctionalInterface
    interface Pauses {
        void pause(Duration wait) throws InterruptedException;
    }

    private volatile Pauses pauses = wait -> Thread.sleep(wait.toMillis());

    /** Replaces the sleep between attempts (tests: a recording clock, so backoff is asserted without timing). */
    void pauses(Pauses next) {
        this.pauses = next;
    }

    private static Reason reason(ProviderResult.Kind kind) {
        return switch (kind) {
            case TIMEOUT -> Reason.TIMEOUT;
            case UNPARSABLE -> Reason.UNPARSABLE;
            case SERVER_ERROR, CLIENT_ERROR, IO -> Reason.PROVIDER_ERROR;
            case INVALID_REQUEST -> Reason.INVALID_REQUEST;
        };
    }

    // ------------------------------------------------------------------ streaming

    @Override
    public LlmStream stream(LlmRequest request, LlmStreamListener listener) {
        var allocation = this.allocation;
        if (allocation == null) {
            return governedStream(request, listener);
        }
        Allotted allotted = allot(allocation, request);
        if (allotted.refusal() != null) {
            return ended(listener, allotted.refusal());
        }
        LlmRequest admitted = allotted.request();
        AtomicBoolean settled = new AtomicBoolean();
        // the stream settles its allocation exactly once, whichever way it ends
        return governedStream(admitted, new LlmStreamListener() {
            @Override
            public void onToken(String token) {
                listener.onToken(token);
            }

            @Override
            public void onToolCalls(tools.jackson.databind.JsonNode delta) {
                listener.onToolCalls(delta);
            }

            @Override
            public void onComplete(LlmOutcome.Answered answered) {
                if (settled.compareAndSet(false, true)) {
                    allocation.settle(allotted.grant(), used(admitted, answered));
                }
                listener.onComplete(allotted.steppedDown() ? (LlmOutcome.Answered) markStepped(answered) : answered);
            }

            @Override
            public void onEnd(LlmOutcome outcome) {
                if (settled.compareAndSet(false, true)) {
                    allocation.settle(allotted.grant(), used(admitted, outcome));
                }
                listener.onEnd(outcome);
            }
        });
    }

    private LlmStream governedStream(LlmRequest request, LlmStreamListener listener) {
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
        StreamPlan plan = new StreamPlan(lane, request, deadline, permit.get(), listener);
        if (plan.advance()) {
            return plan;
        }
        permit.get().close();
        if (breaker != null) {
            breaker.onIgnored();
        }
        metrics.outcome(lane.lane(), null, plan.refusal instanceof LlmOutcome.Saturated ? "saturated" : "degraded");
        return ended(listener, plan.refusal);
    }

    /**
     * The targets one stream may use, in order (the chain's routes, each route's targets as {@link TargetOrder}
     * puts them), and the attempt running now. A target that fails or answers 429 before the first byte is
     * left for the next one (the client saw nothing yet); once a token was sent, the stream stays where it is.
     */
    private final class StreamPlan implements LlmStream {
        final LanePolicy lane;
        final LlmRequest request;
        final Deadline deadline;
        final PermitLease permit;
        final LlmStreamListener listener;
        final int estimate;
        final List<String> chain;
        int route = -1;
        List<ModelRoutes.Target> order = List.of();
        int next;
        int attempts;
        LlmOutcome refusal = new LlmOutcome.Degraded(Reason.PROVIDER_ERROR, "no model could be tried");
        volatile StreamCall current;
        volatile boolean cancelled;

        StreamPlan(LanePolicy lane, LlmRequest request, Deadline deadline, PermitLease permit, LlmStreamListener listener) {
            this.lane = lane;
            this.request = request;
            this.deadline = deadline;
            this.permit = permit;
            this.listener = listener;
            this.estimate = TokenEstimate.of(request);
            this.chain = routes.chain(request.route() != null ? request.route() : lane.route());
        }

        /** Starts the next target that admits the call; false when none is left ({@link #refusal} says why). */
        synchronized boolean advance() {
            while (!cancelled) {
                if (next >= order.size()) {
                    if (refusal instanceof LlmOutcome.Saturated && route >= 0) {
                        return false; // limits refused this route: a fallback model is no answer to a rate limit
                    }
                    if (++route >= chain.size()) {
                        return false;
                    }
                    order = TargetOrder.order(routes.targets(chain.get(route)), providers::get);
                    next = 0;
                    continue;
                }
                if (deadline.expired()) {
                    refusal = new LlmOutcome.Degraded(Reason.TIMEOUT, "the " + lane.lane().key() + " budget ran out");
                    return false;
                }
                String model = chain.get(route);
                ModelRoutes.Target target = order.get(next++);
                ProviderPool.Member provider = providers.get(target.provider());
                if (!provider.breaker().tryAcquire()) {
                    refusal = new LlmOutcome.Degraded(Reason.BREAKER_OPEN, "breaker open for provider " + provider.name());
                    continue;
                }
                Admission admission = provider.tokens().reserve(target.key(), estimate);
                if (admission instanceof Admission.CoolingDown cooling) {
                    provider.breaker().onIgnored();
                    refusal = new LlmOutcome.Saturated(lane.lane(), cooling.remaining(), "provider rate limit: shared cool-down");
                    continue; // another target may take it
                }
                if (admission instanceof Admission.Refused refused) {
                    provider.breaker().onIgnored();
                    refusal = new LlmOutcome.Saturated(lane.lane(), refused.retryIn(), refused.reason());
                    continue;
                }
                Admission.Admitted admitted = (Admission.Admitted) admission;
                Optional<PermitLease> providerPermit = providers.permit(provider);
                if (providerPermit.isEmpty()) {
                    provider.tokens().settle(admitted, 0);
                    provider.breaker().onIgnored();
                    refusal = new LlmOutcome.Saturated(lane.lane(), null, "provider " + provider.name() + " is at its permits");
                    continue;
                }
                SentinelGate.Decision decision = sentinel.enter(lane.lane(), model);
                if (decision instanceof SentinelGate.Decision.Pass pass) {
                    if (attempts++ > 0) {
                        metrics.outcome(lane.lane(), model, "failover");
                    }
                    StreamCall call = new StreamCall(this, model, route > 0, target, provider, providerPermit.get(), admitted,
                        pass);
                    current = call;
                    call.start(deadline, attempts == 1);
                    return true;
                }
                provider.tokens().settle(admitted, 0);
                providerPermit.get().close();
                provider.breaker().onIgnored();
                if (decision instanceof SentinelGate.Decision.Refused refusedLocally) {
                    refusal = new LlmOutcome.Saturated(lane.lane(), null, "local guard refused " + refusedLocally.resource());
                    return false;
                }
                refusal = new LlmOutcome.Degraded(Reason.BREAKER_OPEN, "breaker open for " + model);
            }
            return false;
        }

        @Override
        public void cancel() {
            cancelled = true;
            StreamCall call = current;
            if (call != null) {
                call.cancel();
            }
        }

        @Override
        public boolean finished() {
            StreamCall call = current;
            return call == null || call.finished() && current == call;
        }
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
        private final StreamPlan plan;
        private final LanePolicy lane;
        private final LlmRequest request;
        private final String model;
        private final boolean fallback;
        private final ModelRoutes.Target target;
        private final ProviderPool.Member provider;
        private final PermitLease providerPermit;
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

        StreamCall(StreamPlan plan, String model, boolean fallback, ModelRoutes.Target target, ProviderPool.Member provider,
                PermitLease providerPermit, Admission.Admitted admitted, SentinelGate.Decision.Pass pass) {
            this.plan = plan;
            this.lane = plan.lane;
            this.request = plan.request;
            this.permit = plan.permit;
            this.listener = plan.listener;
            this.model = model;
            this.fallback = fallback;
            this.target = target;
            this.provider = provider;
            this.providerPermit = providerPermit;
            this.admitted = admitted;
            this.pass = pass;
        }

        void start(Deadline deadline, boolean first) {
            if (first) {
                metrics.started(lane.lane());
            }
            provider.started();
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
                upstream = provider.client().stream(new ProviderClient.Call(target.model(), request.messages(),
                    request.maxTokens(), request.parameters()), this);
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
        public void onToolCalls(tools.jackson.databind.JsonNode delta) {
            if (!done.get()) {
                firstToken = true;
                listener.onToolCalls(delta);
            }
        }

        @Override
        public void onComplete(int promptTokens, int completionTokens, String finishReason) {
            if (finishReason == null) {
                abort(new LlmOutcome.Degraded(Reason.PROVIDER_ERROR, "the provider cut the stream midway"), "degraded", true);
                return;
            }
            if (end(promptTokens + completionTokens, true, "ok", null)) {
                breakerSuccess();
                provider.breaker().onSuccess();
                metrics.tokens(lane.lane(), model, promptTokens, completionTokens);
                String answer;
                synchronized (text) {
                    answer = text.toString();
                }
                listener.onComplete(new LlmOutcome.Answered(answer, target.model(), promptTokens, completionTokens, 1,
                    fallback, List.of(new LlmChoice(0, answer, null, finishReason)), provider.name()));
            }
        }

        @Override
        public void onError(ProviderResult failure) {
            if (!firstToken && failOver(failure)) {
                return;
            }
            if (failure instanceof ProviderResult.RateLimited limited) {
                Duration retryAfter = limited.retryAfter() == null ? DEFAULT_COOL_DOWN
                    : limited.retryAfter().compareTo(MIN_COOL_DOWN) < 0 ? MIN_COOL_DOWN : limited.retryAfter();
                provider.tokens().coolDown(target.key(), retryAfter);
                if (end(0, true, "rate_limited", null)) {
                    ignoredByBreaker();
                    provider.breaker().onIgnored();
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
                provider.breaker().onIgnored();
                listener.onEnd(new LlmOutcome.Degraded(Reason.PROVIDER_ERROR, "stream cancelled by the caller"));
            }
        }

        @Override
        public boolean finished() {
            return done.get();
        }

        /**
         * Before the first byte the client has seen nothing: this target's share is given back (a failure
         * counts at its breaker, a 429 starts its cool-down) and the next target starts, keeping the lane permit.
         * False when no other target could start (the stream then ends as it would have).
         */
        private boolean failOver(ProviderResult failure) {
            if (plan.cancelled || plan.deadline.expired() || !done.compareAndSet(false, true)) {
                return false;
            }
            if (firstTokenTimer != null) {
                firstTokenTimer.cancel(false);
            }
            if (renewal != null) {
                renewal.cancel(false);
            }
            providerPermit.close();
            provider.ended();
            if (failure instanceof ProviderResult.RateLimited limited) {
                Duration retryAfter = limited.retryAfter() == null ? DEFAULT_COOL_DOWN
                    : limited.retryAfter().compareTo(MIN_COOL_DOWN) < 0 ? MIN_COOL_DOWN : limited.retryAfter();
                provider.tokens().coolDown(target.key(), retryAfter);
                provider.tokens().settle(admitted, 0);
                pass.success(); // a rate signal, not a failure
                provider.breaker().onIgnored();
                metrics.providerCall(provider.name(), "rate_limited");
                plan.refusal = new LlmOutcome.Saturated(lane.lane(), retryAfter, "provider answered 429");
            } else {
                ProviderResult.Failed failed = (ProviderResult.Failed) failure;
                provider.tokens().settle(admitted, TokenEstimate.prompt(request.messages()));
                pass.failure(failed.kind().name());
                provider.breaker().onFailure();
                metrics.providerCall(provider.name(), failed.kind() == ProviderResult.Kind.TIMEOUT ? "timeout" : "failed");
                plan.refusal = new LlmOutcome.Degraded(reason(failed.kind()), provider.name() + " " + failed.kind() + ": "
                    + failed.detail());
            }
            if (plan.advance()) {
                return true;
            }
            // nothing else could start: end the stream with what this target said
            permit.close();
            if (lane.breaker() != null) {
                if (failure instanceof ProviderResult.RateLimited) {
                    lane.breaker().onIgnored();
                } else {
                    lane.breaker().onFailure();
                }
            }
            metrics.ended(lane.lane());
            metrics.outcome(lane.lane(), model, failure instanceof ProviderResult.RateLimited ? "rate_limited" : "degraded");
            metrics.latency(lane.lane(), model, Duration.ofNanos(System.nanoTime() - started));
            listener.onEnd(plan.refusal);
            return true;
        }

        private void abort(LlmOutcome.Degraded outcome, String metric, boolean cancelUpstream) {
            if (end(admitted.tokens(), false, metric, cancelUpstream ? upstream : null)) {
                if (lane.breaker() != null) {
                    lane.breaker().onFailure();
                }
                provider.breaker().onFailure();
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
            providerPermit.close();
            provider.ended();
            provider.tokens().settle(admitted, tokens > 0 ? tokens : admitted.tokens());
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

    /** The embedding lane: its route, budget and permit wait (null = not configured). */
    public record EmbeddingLane(String route, Duration budget, Duration permitWait) {
    }

    /** Embedding permits are the lane key {@value #EMBEDDING_LANE} of the cluster permits. */
    public static final String EMBEDDING_LANE = "embedding";

    private volatile EmbeddingLane embeddingLane;

    void embeddingLane(EmbeddingLane lane) {
        if (this.embeddingLane == null) {
            metrics.embeddingPermits(permits, EMBEDDING_LANE);
        }
        this.embeddingLane = lane;
    }

    @Override
    public EmbeddingOutcome embed(EmbeddingRequest request) {
        EmbeddingOutcome outcome = embedOnce(request);
        metrics.embedding(switch (outcome) {
            case EmbeddingOutcome.Embedded e -> "ok";
            case EmbeddingOutcome.Refused r -> switch (r.reason()) {
                case LlmOutcome.Saturated s -> "saturated";
                case LlmOutcome.Degraded d -> d.reason().name().toLowerCase(java.util.Locale.ROOT);
                case LlmOutcome.Answered a -> "ok";
            };
        });
        return outcome;
    }

    private EmbeddingOutcome embedOnce(EmbeddingRequest request) {
        EmbeddingLane lane = embeddingLane;
        if (lane == null) {
            return new EmbeddingOutcome.Refused(new LlmOutcome.Degraded(Reason.NOT_CONFIGURED,
                "the embedding lane is not configured (sluice.gateway.embeddings, sluice.permits.lanes.embedding)"));
        }
        Deadline deadline = Deadline.after(request.budget() != null ? request.budget() : lane.budget());
        Optional<PermitLease> permit = permits.tryAcquire(EMBEDDING_LANE, deadline.cap(lane.permitWait()));
        if (permit.isEmpty()) {
            return new EmbeddingOutcome.Refused(new LlmOutcome.Saturated(Lane.INTERACTIVE, null, "no embedding permit in time"));
        }
        long chars = request.inputs().stream().mapToLong(String::length).sum();
        long estimate = Math.max(1, chars / 4 + request.inputs().size());
        LlmOutcome last = new LlmOutcome.Degraded(Reason.PROVIDER_ERROR, "no embedding target could be tried");
        try (PermitLease ignored = permit.get()) {
            for (String route : routes.chain(request.route() != null ? request.route() : lane.route())) {
                List<ModelRoutes.Target> order = TargetOrder.order(routes.targets(route), providers::get);
                for (int t = 0; t < order.size(); t++) {
                    if (deadline.expired()) {
                        return new EmbeddingOutcome.Refused(new LlmOutcome.Degraded(Reason.TIMEOUT,
                            "the embedding budget ran out"));
                    }
                    ModelRoutes.Target target = order.get(t);
                    ProviderPool.Member provider = providers.get(target.provider());
                    if (!provider.breaker().tryAcquire()) {
                        last = new LlmOutcome.Degraded(Reason.BREAKER_OPEN, "breaker open for provider " + provider.name());
                        continue;
                    }
                    Admission admission = provider.tokens().reserve(target.key(), estimate);
                    if (!(admission instanceof Admission.Admitted admitted)) {
                        provider.breaker().onIgnored();
                        last = new LlmOutcome.Saturated(Lane.INTERACTIVE, admission instanceof Admission.CoolingDown c
                            ? c.remaining() : ((Admission.Refused) admission).retryIn(), "embedding target rate-limited");
                        continue;
                    }
                    Duration left = deadline.remaining();
                    Duration timeout = t < order.size() - 1 ? left.dividedBy(2) : left;
                    provider.started();
                    ProviderClient.EmbeddingResult result;
                    try {
                        result = provider.client().embed(target.model(), request.inputs(), timeout);
                    } finally {
                        provider.ended();
                    }
                    if (result instanceof ProviderClient.EmbeddingResult.Embedded embedded) {
                        provider.tokens().settleAndSync(target.key(), admitted,
                            embedded.promptTokens() > 0 ? embedded.promptTokens() : estimate, embedded.rateLimit());
                        provider.breaker().onSuccess();
                        metrics.providerCall(provider.name(), "ok");
                        if (allocation != null) {   // counted by type; embeddings are small and never refused by type
                            allocation.record(RequestType.EMBEDDING, embedded.promptTokens() > 0 ? embedded.promptTokens() : estimate);
                        }
                        return new EmbeddingOutcome.Embedded(embedded.vectors(), target.model(), provider.name(),
                            embedded.promptTokens());
                    }
                    ProviderResult failure = ((ProviderClient.EmbeddingResult.Failed) result).failure();
                    provider.tokens().settleAndSync(target.key(), admitted, 0, failure.rateLimit());
                    if (failure instanceof ProviderResult.RateLimited limited) {
                        provider.breaker().onIgnored();
                        Duration retryAfter = limited.retryAfter() == null ? DEFAULT_COOL_DOWN : limited.retryAfter();
                        provider.tokens().coolDown(target.key(), retryAfter);
                        last = new LlmOutcome.Saturated(Lane.INTERACTIVE, retryAfter, "embedding provider answered 429");
                        continue;
                    }
                    ProviderResult.Failed failed = (ProviderResult.Failed) failure;
                    if (failed.kind() == ProviderResult.Kind.INVALID_REQUEST) {
                        provider.breaker().onIgnored();
                        return new EmbeddingOutcome.Refused(new LlmOutcome.Degraded(Reason.INVALID_REQUEST, failed.detail()));
                    }
                    provider.breaker().onFailure();
                    metrics.providerCall(provider.name(), "failed");
                    last = new LlmOutcome.Degraded(reason(failed.kind()), failed.kind() + ": " + failed.detail());
                }
            }
        }
        return new EmbeddingOutcome.Refused(last);
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
