package io.sluice.api.chat;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.validation.Valid;

import io.sluice.api.auth.ApiClient;
import io.sluice.api.ingress.RateLimitedException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code POST /api/v1/chat/stream} (SSE): {@code queued {position, etaMs}} while waiting for
 * admission, then {@code meta} (tier, intent, sources …), {@code token}, {@code done}; failures as an
 * {@code error} event. A heartbeat comment every second detects a client that went away: its request
 * is cancelled (the worker interrupted), which takes it out of the admission queue or frees its slot.
 *
 * <p>Today the answer is made whole (F1/F2) and sent as one {@code token} event; token-by-token
 * streaming through {@code LlmGateway.stream} comes with the gateway (next session), same events.
 */
@RestController
public class ChatStreamController {

    private static final Logger log = LoggerFactory.getLogger(ChatStreamController.class);

    private final ChatService chat;
    private final ThreadPoolExecutor workers;
    private final ScheduledExecutorService heartbeats;
    private final long timeoutMs;

    public ChatStreamController(ChatService chat, ThreadPoolExecutor chatStreamWorkers,
            ScheduledExecutorService chatStreamHeartbeats, ChatProperties properties) {
        this.chat = chat;
        this.workers = chatStreamWorkers;
        this.heartbeats = chatStreamHeartbeats;
        this.timeoutMs = properties.streamTimeout().toMillis();
    }

    @PostMapping(path = "/api/v1/chat/stream", consumes = MediaType.APPLICATION_JSON_VALUE,
        produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter stream(@RequestAttribute(ApiClient.ATTRIBUTE) ApiClient client,
            @Valid @RequestBody ChatRequest request) {
        SseEmitter emitter = new SseEmitter(timeoutMs);
        AtomicBoolean finished = new AtomicBoolean();
        Future<?> work;
        try {
            work = workers.submit(() -> run(emitter, finished, client, request));
        } catch (RejectedExecutionException e) {
            throw new RateLimitedException(RateLimitedException.Scope.GLOBAL, java.time.Duration.ofSeconds(1));
        }
        ScheduledFuture<?> heartbeat = heartbeats.scheduleWithFixedDelay(() -> {
            if (!finished.get()) {
                try {
                    synchronized (emitter) {
                        emitter.send(SseEmitter.event().comment("keep-alive"));
                    }
                } catch (IOException | IllegalStateException e) {
                    cancel(finished, work);
                }
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

    private void run(SseEmitter emitter, AtomicBoolean finished, ApiClient client, ChatRequest request) {
        try {
            ChatResponse response = chat.chat(client, request,
                (position, etaMs) -> send(emitter, "queued", Map.of("position", position, "etaMs", etaMs)));
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("tier", response.tier());
            meta.put("badge", response.badge());
            meta.put("intent", response.intent());
            meta.put("priority", response.priority());
            meta.put("sources", response.sources());
            meta.put("cached", response.cached());
            meta.put("queueWaitMs", response.queueWaitMs());
            meta.put("requestId", response.requestId());
            meta.put("sessionId", response.sessionId());
            meta.put("degradationLevel", response.degradationLevel());
            send(emitter, "meta", meta);
            send(emitter, "token", Map.of("text", response.answer()));
            send(emitter, "done", Map.of("latencyMs", response.latencyMs()));
            finished.set(true);
            emitter.complete();
        } catch (RateLimitedException e) {
            fail(emitter, finished, Map.of("status", 429, "type", "rate-limited", "retryAfter", e.retryAfterSeconds()));
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted() || finished.get()) {
                return;                                   // the client went away: nothing to tell
            }
            log.error("chat stream failed", e);
            fail(emitter, finished, Map.of("status", 500, "type", "internal"));
        }
    }

    private static void fail(SseEmitter emitter, AtomicBoolean finished, Map<String, Object> error) {
        try {
            send(emitter, "error", error);
            emitter.complete();
        } catch (RuntimeException ignored) {
            // the client is gone
        } finally {
            finished.set(true);
        }
    }

    private static void send(SseEmitter emitter, String name, Object data) {
        try {
            synchronized (emitter) {
                emitter.send(SseEmitter.event().name(name).data(data, MediaType.APPLICATION_JSON));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void cancel(AtomicBoolean finished, Future<?> work) {
        if (finished.compareAndSet(false, true)) {
            work.cancel(true);
        }
    }
}
