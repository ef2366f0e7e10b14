package io.sluice.bench.load;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.DoubleUnaryOperator;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Open-loop load on {@code POST /api/v1/chat}: requests leave at the times the rate function sets,
 * whether or not earlier ones have answered, and each is timed from its intended start (no
 * coordinated omission). Bounded three ways: the duration, a request count, and the requests in
 * flight (beyond which a request is counted as not sent, never queued). Targets are the live
 * instances, round robin; an instance taken down is dropped from the rotation at once (an ideal load
 * balancer), and a request refused at connect is sent once more to another instance.
 */
final class LoadGenerator implements AutoCloseable {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    /** Mixed intents (S / A / B); the phone number keeps each turn personal, so none is served from the cache. */
    static final List<String> MESSAGES = List.of(
        "我要投诉，你们客服态度太差了，手机%s", // complaint: S
        "退款多久到账？手机%s",                 // refund: A
        "付款失败了但是钱被扣了，手机%s",        // payment: A
        "怎么查物流，手机%s",                   // logistics: B
        "优惠券为什么不能用，手机%s",            // promotion: B
        "退货的运费谁来出？手机%s",              // returns: B
        "忘记密码怎么办，手机%s",                // account: B
        "how do I track my order, phone 1380013%04d".replace("%04d", "%s"));

    private final Timeline timeline;
    private final Duration deadline;
    private final int maxInFlight;
    private final List<String> targets = new CopyOnWriteArrayList<>();
    private final Set<String> down = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> downSince = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();
    private final Semaphore inFlight;
    private final ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "bench-load-http");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http;
    private final SplittableRandom random = new SplittableRandom(7);
    private final SplittableRandom choices = new SplittableRandom(11);
    private volatile OfferPolicy offerPolicy;
    private volatile java.util.function.Consumer<String> onDeadlineMissed = target -> { };

    /**
     * How the generator answers fast-mode offers (issue 18): a share of the requests go to {@code /api/v1/chat/stream};
     * when one gets an {@code offer} event, a complaint (S) keeps its place, any other takes the fast answer with
     * probability {@code takeFast}, a deferred answer with {@code defer}, else keeps its place.
     */
    record OfferPolicy(double streamShare, double takeFast, double defer, ScenarioExtras.Offers stats) {

        String choose(boolean complaint, double r) {
            if (complaint) {
                return "keep";
            }
            return r < takeFast ? "fast" : r < takeFast + defer ? "defer" : "keep";
        }
    }

    /**
     * Told the target of a request that is still unanswered at its deadline (the request is then still inside that
     * instance, so a thread dump taken now shows where it waits).
     */
    void onDeadlineMissed(java.util.function.Consumer<String> listener) {
        this.onDeadlineMissed = listener;
    }

    /** Streams a share of the requests and answers their offers (null: plain POSTs only, as before). */
    void offers(OfferPolicy policy) {
        this.offerPolicy = policy;
    }

    private synchronized double chance() {
        return choices.nextDouble();
    }

    LoadGenerator(Timeline timeline, List<String> targets, Duration deadline, int maxInFlight) {
        this.timeline = timeline;
        this.targets.addAll(targets);
        this.deadline = deadline;
        this.maxInFlight = maxInFlight;
        this.inFlight = new Semaphore(maxInFlight);
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
            .executor(executor).build();
    }

    /** Takes an instance out of the rotation (it was killed): requests already on it are lost with it. */
    void markDown(String target) {
        downSince.put(target, System.nanoTime());
        down.add(target);
        targets.remove(target);
    }

    void markUp(String target) {
        down.remove(target);
        downSince.remove(target);
        if (!targets.contains(target)) {
            targets.add(target);
        }
    }

    /**
     * Sends at {@code rate.applyAsDouble(secondsSinceTimelineStart)} requests per second until
     * {@code untilSecond} (timeline time) or {@code maxRequests}, then waits for the answers (bounded by the deadline).
     */
    void run(DoubleUnaryOperator rate, double untilSecond, long maxRequests) throws InterruptedException {
        long sent = 0;
        long due = System.nanoTime();
        while (sent < maxRequests) {
            double now = timeline.secondsSinceStart(due);
            if (now >= untilSecond) {
                break;
            }
            double r = rate.applyAsDouble(now);
            if (r <= 0) {
                due += TimeUnit.MILLISECONDS.toNanos(100);
                continue;
            }
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // pacing the open loop, not synchronisation
            }
            send(due);
            sent++;
            due += (long) (1e9 / r);
        }
        // every request has its deadline: wait for them all, a bounded time
        if (inFlight.tryAcquire(maxInFlight, deadline.toMillis() + 5_000, TimeUnit.MILLISECONDS)) {
            inFlight.release(maxInFlight);
        }
    }

    private void send(long intended) {
        if (!inFlight.tryAcquire()) {
            timeline.notSent();
            return;
        }
        timeline.sent(intended);
        String body = body();
        OfferPolicy policy = offerPolicy;
        CompletableFuture<Outcome> sending = policy != null && chance() < policy.streamShare()
            ? stream(pickTarget(null), body, intended, policy) : attempt(pickTarget(null), body, intended, true);
        sending.whenComplete((outcome, error) -> {
            Outcome result = error == null ? outcome
                : violation(intended, 0, "harness error: " + error);
            timeline.record(intended, result);
            inFlight.release();
        });
    }

    private CompletableFuture<Outcome> attempt(String target, String body, long intended, boolean mayFailOver) {
        if (target == null) {
            return CompletableFuture.completedFuture(violation(intended, 0, "no live instance"));
        }
        long remaining = deadline.toNanos() - (System.nanoTime() - intended);
        if (remaining <= 0) {
            return CompletableFuture.completedFuture(violation(intended, 0, "deadline passed before sending"));
        }
        long sentAt = System.nanoTime();
        HttpRequest request = HttpRequest.newBuilder(URI.create(target + "/api/v1/chat"))
            .timeout(Duration.ofNanos(remaining))
            .header("Authorization", "Bearer " + Fleet.API_KEY)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
            .thenApply(response -> classify(response, intended))
            .exceptionallyCompose(error -> {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                Long killedAt = downSince.get(target);
                if (cause instanceof HttpTimeoutException) {
                    onDeadlineMissed.accept(target);
                    return CompletableFuture.completedFuture(violation(intended, 0, "no answer within " + deadline
                        + " (POST to " + target + ")"));
                }
                if (killedAt != null && sentAt < killedAt) {
                    return CompletableFuture.completedFuture(new Outcome(Outcome.Kind.LOST_WITH_KILLED_INSTANCE, null, null,
                        false, 0, System.nanoTime() - intended, 0, cause.toString()));
                }
                if (mayFailOver && (cause instanceof ConnectException || killedAt != null)) {
                    return attempt(pickTarget(target), body, intended, false);
                }
                return CompletableFuture.completedFuture(violation(intended, 0, cause.toString()));
            });
    }

    /** One request as an SSE stream: its offer answered by the policy, its end classified like a plain answer. */
    private CompletableFuture<Outcome> stream(String target, String body, long intended, OfferPolicy policy) {
        if (target == null) {
            return CompletableFuture.completedFuture(violation(intended, 0, "no live instance"));
        }
        long remaining = deadline.toNanos() - (System.nanoTime() - intended);
        if (remaining <= 0) {
            return CompletableFuture.completedFuture(violation(intended, 0, "deadline passed before sending"));
        }
        policy.stats().streams.incrementAndGet();
        HttpRequest request = HttpRequest.newBuilder(URI.create(target + "/api/v1/chat/stream"))
            .timeout(Duration.ofNanos(remaining))
            .header("Authorization", "Bearer " + Fleet.API_KEY)
            .header("Content-Type", "application/json")
            .header("Accept", "text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        SseReader reader = new SseReader(target, body.contains("投诉"), policy);
        return http.sendAsync(request, HttpResponse.BodyHandlers.fromLineSubscriber(reader))
            .thenApply(response -> reader.outcome(response, intended))
            .exceptionally(error -> {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                policy.stats().ended(reader.choice, null, 0);
                if (cause instanceof HttpTimeoutException) {
                    onDeadlineMissed.accept(target);
                }
                return violation(intended, 0, (cause instanceof HttpTimeoutException ? "no answer within " + deadline
                    : "stream: " + cause) + " (" + reader.describe() + ")");
            });
    }

    /** Reads one chat stream's events as they come; answers its offer at once. */
    private final class SseReader implements java.util.concurrent.Flow.Subscriber<String> {
        private final String target;
        private final boolean complaint;
        private final OfferPolicy policy;
        private String event;
        private volatile String tier;
        private volatile String priority;
        private volatile long queueWaitMs;
        private volatile boolean cached;
        private volatile boolean done;
        private volatile int errorStatus;
        private volatile boolean errorRetryAfter;
        private volatile String choice = "none";
        private volatile String lastEvent = "none";
        private volatile long lastEventAt;
        private final long openedAt = System.nanoTime();

        SseReader(String target, boolean complaint, OfferPolicy policy) {
            this.target = target;
            this.complaint = complaint;
            this.policy = policy;
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            if (line.startsWith("event:")) {
                event = line.substring(6).trim();
            } else if (line.startsWith("data:") && event != null) {
                String name = event;
                event = null;
                lastEvent = name;
                lastEventAt = System.nanoTime();
                JsonNode data;
                try {
                    data = JSON.readTree(line.substring(5).trim());
                } catch (RuntimeException e) {
                    return;
                }
                switch (name) {
                    case "offer" -> offered(data);
                    case "meta" -> {
                        tier = data.path("tier").asString(null);
                        priority = data.path("priority").asString(null);
                        queueWaitMs = data.path("queueWaitMs").asLong(0);
                        cached = data.path("cached").asBoolean(false);
                    }
                    case "done" -> done = true;
                    case "error" -> {
                        errorStatus = data.path("status").asInt(0);
                        errorRetryAfter = data.has("retryAfter");
                    }
                    default -> {
                        // queued, token: nothing to keep
                    }
                }
            }
        }

        private void offered(JsonNode offer) {
            policy.stats().offered.incrementAndGet();
            String chosen = policy.choose(complaint, chance());
            choice = chosen;
            policy.stats().chose(chosen);
            HttpRequest request = HttpRequest.newBuilder(URI.create(target + "/api/v1/chat/"
                    + offer.path("requestId").asString("") + "/offer"))
                .timeout(Duration.ofSeconds(5))
                .header("Authorization", "Bearer " + Fleet.API_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"choice\":\"" + chosen + "\"}")).build();
            http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .thenAccept(response -> policy.stats().choiceAnswered(response.statusCode()))
                .exceptionally(error -> {
                    policy.stats().choiceAnswered(0);
                    return null;
                });
        }

        /** Where a stream that broke the invariant was: for the report's examples. */
        String describe() {
            return "stream to " + target + ", offer choice " + choice + ", last event " + lastEvent
                + (lastEventAt == 0 ? "" : " at " + (lastEventAt - openedAt) / 1_000_000 + " ms");
        }

        @Override
        public void onError(Throwable throwable) {
            // the response future fails too: classified there
        }

        @Override
        public void onComplete() {
        }

        Outcome outcome(HttpResponse<Void> response, long intended) {
            long latency = System.nanoTime() - intended;
            int status = response.statusCode();
            boolean late = latency > deadline.toNanos();
            Outcome outcome;
            if (status == 200 && done && tier != null && !late) {
                outcome = new Outcome(Outcome.Kind.ANSWERED, tier, priority, cached, queueWaitMs, latency, status, null);
            } else if (status == 200 && (errorStatus == 429 || errorStatus == 503) && errorRetryAfter && !late) {
                outcome = new Outcome(errorStatus == 429 ? Outcome.Kind.REJECTED : Outcome.Kind.UNAVAILABLE, null, null,
                    false, 0, latency, errorStatus, null);
            } else if ((status == 429 || status == 503) && response.headers().firstValue("Retry-After").isPresent() && !late) {
                outcome = new Outcome(status == 429 ? Outcome.Kind.REJECTED : Outcome.Kind.UNAVAILABLE, null, null, false, 0,
                    latency, status, null);
            } else {
                outcome = violation(intended, status, (late ? "stream ended after the deadline"
                    : "stream ended without an answer (status " + status + ", error " + errorStatus + ")") + " (" + describe() + ")");
            }
            policy.stats().ended(choice, outcome.kind() == Outcome.Kind.ANSWERED ? tier : null, latency / 1_000_000);
            return outcome;
        }
    }

    private String pickTarget(String not) {
        List<String> live = targets.stream().filter(t -> !t.equals(not) && !down.contains(t)).toList();
        return live.isEmpty() ? null : live.get(Math.floorMod(next.getAndIncrement(), live.size()));
    }

    private synchronized String body() {
        String template = MESSAGES.get(random.nextInt(MESSAGES.size()));
        String phone = "138" + String.format("%08d", random.nextInt(100_000_000));
        String message = template.contains("phone 1380013") ? template.formatted(phone.substring(7)) : template.formatted(phone);
        return JSON.writeValueAsString(Map.of("userId", "bench-user-" + random.nextInt(5_000), "message", message));
    }

    private Outcome classify(HttpResponse<String> response, long intended) {
        long latency = System.nanoTime() - intended;
        int status = response.statusCode();
        boolean late = latency > deadline.toNanos();
        boolean retryAfter = response.headers().firstValue("Retry-After").isPresent();
        if (status == 200) {
            JsonNode answer;
            try {
                answer = JSON.readTree(response.body());
            } catch (RuntimeException e) {
                return violation(intended, status, "200 with an unreadable body");
            }
            String tier = answer.path("tier").asString(null);
            if (tier == null || tier.isBlank()) {
                return violation(intended, status, "200 without a tier");
            }
            if (late) {
                return violation(intended, status, "answered after the deadline");
            }
            return new Outcome(Outcome.Kind.ANSWERED, tier, answer.path("priority").asString(null),
                answer.path("cached").asBoolean(false), answer.path("queueWaitMs").asLong(0), latency, status, null);
        }
        if ((status == 429 || status == 503) && retryAfter && !late) {
            return new Outcome(status == 429 ? Outcome.Kind.REJECTED : Outcome.Kind.UNAVAILABLE, null, null, false, 0,
                latency, status, null);
        }
        String why = status + (retryAfter ? "" : " without Retry-After") + (late ? " after the deadline" : "") + ": "
            + response.body().substring(0, Math.min(200, response.body().length()));
        return violation(intended, status, why);
    }

    private static Outcome violation(long intended, int status, String detail) {
        return new Outcome(Outcome.Kind.VIOLATION, null, null, false, 0, System.nanoTime() - intended, status, detail);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
