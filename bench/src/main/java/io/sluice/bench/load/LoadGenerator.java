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
        attempt(pickTarget(null), body, intended, true).whenComplete((outcome, error) -> {
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
                    return CompletableFuture.completedFuture(violation(intended, 0, "no answer within " + deadline));
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
