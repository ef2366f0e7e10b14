package io.sluice.api.chat;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.validation.Valid;

import io.sluice.api.auth.ApiClient;
import io.sluice.api.ingress.RateLimitedException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code POST /api/v1/chat/stream} (SSE): {@code queued {position, etaMs}} while waiting for
 * admission, then {@code meta} (tier, intent, sources …), {@code token}, {@code done}; failures as an
 * {@code error} event. Every write, and a heartbeat comment when nothing else was written for the last
 * {@link StreamOut#KEEP_ALIVE_AFTER_NANOS} (checked every second), detects a client that went away: its request
 * is cancelled (the worker interrupted), which takes it out of the admission queue or frees its slot. A
 * stream whose tokens are flowing needs no heartbeat (they were a write per stream per second: 5,000 a second
 * for 5,000 streams).
 * Each stream runs on a virtual thread of its own ({@link ChatStreamWorkers}): waiting pins no platform thread.
 *
 * <p>LLM tiers (F4–F2) stream token by token through {@code LlmGateway.stream}: {@code meta} goes out
 * just before the first token; a disconnect interrupts the worker, which cancels the gateway stream
 * and so frees its permit. Answers made without the LLM (F1, F0, cache hits) come as one {@code token}.
 * A stream that breaks after its first tokens ends with an {@code error} event (status 502).
 */
@RestController
public class ChatStreamController {

    private static final Logger log = LoggerFactory.getLogger(ChatStreamController.class);

    private final ChatService chat;
    private final ChatStreamWorkers workers;
    private final ScheduledExecutorService heartbeats;
    private final long timeoutMs;

    public ChatStreamController(ChatService chat, ChatStreamWorkers chatStreamWorkers,
            ScheduledExecutorService chatStreamHeartbeats, ChatProperties properties) {
        this.chat = chat;
        this.workers = chatStreamWorkers;
        this.heartbeats = chatStreamHeartbeats;
        this.timeoutMs = properties.streamTimeout().toMillis();
    }

    @PostMapping(path = "/api/v1/chat/stream", consumes = MediaType.APPLICATION_JSON_VALUE,
        produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter stream(ApiClient client,
            @Valid @RequestBody ChatRequest request) {
        SseEmitter emitter = new SseEmitter(timeoutMs);
        StreamOut out = new StreamOut(emitter);
        AtomicBoolean finished = new AtomicBoolean();
        Future<?> work;
        try {
            work = workers.submit(() -> run(out, finished, client, request));
        } catch (RejectedExecutionException e) {
            throw new RateLimitedException(RateLimitedException.Scope.GLOBAL, java.time.Duration.ofSeconds(1));
        }
        // the timer only dispatches: the write runs on a virtual thread, so a slow client delays its own
        // keep-alive, never the others'; at most one in flight per stream
        AtomicBoolean beating = new AtomicBoolean();
        ScheduledFuture<?> heartbeat = heartbeats.scheduleWithFixedDelay(() -> {
            if (!finished.get() && out.needsKeepAlive(System.nanoTime()) && beating.compareAndSet(false, true)) {
                workers.execute(() -> {
                    try {
                        out.keepAlive();
                    } catch (IOException | IllegalStateException e) {
                        cancel(finished, work);
                    } finally {
                        beating.set(false);
                    }
                });
            }
        }, 1, 1, TimeUnit.SECONDS);
        Runnable cleanup = () -> {
            cancel(finished, work);
            heartbeat.cancel(false);
        };
        emitter.onCompletion(cleanup);
        emitter.onTimeout(cleanup);
        emitter.onError(error -> cleanup.run());
        return emitter;
    }

    private void run(StreamOut out, AtomicBoolean finished, ApiClient client, ChatRequest request) {
        SseAnswerStream sink = new SseAnswerStream(out);
        try {
            ChatResponse response = chat.chat(client, request,
                (position, etaMs) -> out.event("queued", Map.of("position", position, "etaMs", etaMs)), sink);
            if (!sink.begun()) {                          // not streamed by the LLM (F1, F0, cache): one token
                Map<String, Object> meta = meta(response.tier(), response.sources(), response.intent(),
                    response.priority(), response.cached(), response.queueWaitMs(), response.requestId(),
                    response.sessionId(), response.degradationLevel());
                if (response.ticket() != null) {
                    meta.put("ticket", response.ticket());
                    meta.put("statusUrl", response.statusUrl());
                }
                if (response.freshness() != null) {
                    meta.put("freshness", response.freshness());
                }
                out.event("meta", meta);
                out.event("token", Map.of("text", response.answer()));
            } else if (response.freshness() != null) {    // streamed: the dated notice follows the last token
                out.event("token", Map.of("text", FreshnessStep.notice(
                    io.sluice.knowledge.answer.AnswerLanguage.of(request.message()), response.freshness().basedOn())));
            }
            out.event("done", response.freshness() == null
                ? Map.of("latencyMs", response.latencyMs(), "tier", response.tier())
                : Map.of("latencyMs", response.latencyMs(), "tier", response.tier(), "freshness", response.freshness()));
            finished.set(true);
            out.complete();
        } catch (RateLimitedException e) {
            fail(out, finished, Map.of("status", 429, "type", "rate-limited", "retryAfter", e.retryAfterSeconds()));
        } catch (TieredAnswerStep.StreamBrokenException e) {
            log.warn("chat stream broke: {}", e.getMessage());
            fail(out, finished, Map.of("status", 502, "type", "stream-broken"));
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted() || finished.get()
                    || e instanceof java.util.concurrent.CancellationException) {
                return;                                   // the client went away: nothing to tell
            }
            log.error("chat stream failed", e);
            fail(out, finished, Map.of("status", 500, "type", "internal"));
        }
    }

    static Map<String, Object> meta(io.sluice.governance.tier.FidelityTier tier, java.util.List<ChatResponse.Source> sources,
            String intent, String priority, boolean cached, long queueWaitMs, java.util.UUID requestId,
            java.util.UUID sessionId, String level) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("tier", tier);
        meta.put("badge", tier.badge());
        meta.put("intent", intent);
        meta.put("priority", priority);
        meta.put("sources", sources);
        meta.put("cached", cached);
        meta.put("queueWaitMs", queueWaitMs);
        meta.put("requestId", requestId);
        meta.put("sessionId", sessionId);
        meta.put("degradationLevel", level);
        return meta;
    }

    /** LLM tokens straight to the client: meta just before the first token, then one event per token. */
    private static final class SseAnswerStream implements AnswerStream {
        private final StreamOut out;
        private volatile boolean begun;

        SseAnswerStream(StreamOut out) {
            this.out = out;
        }

        @Override
        public void begin(ChatContext ctx, io.sluice.governance.tier.FidelityTier tier,
                java.util.List<ChatResponse.Source> sources) {
            begun = true;
            out.event("meta", meta(tier, sources, ctx.intent() == null ? null : ctx.intent().code(),
                ctx.priority().name(), false, ctx.queueWaitMs(), ctx.requestId(),
                ctx.session() == null ? null : ctx.session().id(), ctx.level().name()));
        }

        @Override
        public void token(String text) {
            out.event("token", Map.of("text", text));
        }

        @Override
        public boolean begun() {
            return begun;
        }

        @Override
        public boolean offer(ChatContext ctx, int position, long etaMs, long decideWithinMs) {
            Map<String, Object> offer = new LinkedHashMap<>();
            offer.put("requestId", ctx.requestId());
            offer.put("position", position);
            offer.put("etaMs", etaMs);
            offer.put("choices", java.util.List.of("fast", "keep", "defer"));
            offer.put("choiceUrl", "/api/v1/chat/" + ctx.requestId() + "/offer");
            offer.put("decideWithinMs", decideWithinMs);
            out.event("offer", offer);
            return true;
        }
    }

    private static void fail(StreamOut out, AtomicBoolean finished, Map<String, Object> error) {
        try {
            out.event("error", error);
            out.complete();
        } catch (RuntimeException ignored) {
            // the client is gone
        } finally {
            finished.set(true);
        }
    }

    /** One stream's emitter and when it was last written to: one writer at a time, heartbeats only into silence. */
    static final class StreamOut {
        /** Silence after which the next check sends a heartbeat: just under the check's period of one second. */
        static final long KEEP_ALIVE_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(900);

        private final SseEmitter emitter;
        private volatile long lastWrite;

        StreamOut(SseEmitter emitter) {
            this(emitter, System.nanoTime());
        }

        StreamOut(SseEmitter emitter, long openedAt) {
            this.emitter = emitter;
            this.lastWrite = openedAt;
        }

        void send(SseEmitter.SseEventBuilder event) throws IOException {
            synchronized (this) {
                emitter.send(event);
                lastWrite = System.nanoTime();
            }
        }

        /** One named event with a JSON body; a failed write (the client is gone) as an unchecked exception. */
        void event(String name, Object data) {
            try {
                send(SseEmitter.event().name(name).data(data, MediaType.APPLICATION_JSON));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        void keepAlive() throws IOException {
            send(SseEmitter.event().comment("keep-alive"));
        }

        /** Whether nothing was written for {@link #KEEP_ALIVE_AFTER_NANOS} before {@code now}. */
        boolean needsKeepAlive(long now) {
            return now - lastWrite >= KEEP_ALIVE_AFTER_NANOS;
        }

        void complete() {
            emitter.complete();
        }
    }

    private static void cancel(AtomicBoolean finished, Future<?> work) {
        if (finished.compareAndSet(false, true)) {
            work.cancel(true);
        }
    }
}
