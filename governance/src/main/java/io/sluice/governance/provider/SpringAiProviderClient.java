package io.sluice.governance.provider;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;

import io.sluice.governance.gateway.LlmMessage;

import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;
import reactor.core.Disposable;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

/**
 * The provider through Spring AI's OpenAI client ({@link OpenAiChatModel}, any OpenAI-compatible base
 * URL). The SDK's own retries are off (the gateway owns retries). An OkHttp interceptor taps every
 * exchange: it reads {@code Retry-After}/{@code x-ratelimit-*} headers (Spring AI 2.0 does not expose
 * them) and holds the HTTP call so a deadline can cancel it.
 */
public final class SpringAiProviderClient implements ProviderClient {

    static final String TAP_HEADER = "X-Sluice-Tap";
    /** Calls (streams) the HTTP client runs at once: far above any lane's permits, which are the bound. */
    static final int MAX_CALLS = 100_000;
    /** Idle provider connections kept for reuse (closed after 5 idle minutes): well above any lane's permits. */
    static final int IDLE_CONNECTIONS = 256;

    private final OpenAiChatModel chatModel;
    private final ScheduledExecutorService deadlines;
    private final Map<String, Tap> taps = new ConcurrentHashMap<>();
    private final AtomicLong tapIds = new AtomicLong();

    public SpringAiProviderClient(String baseUrl, String apiKey) {
        this.chatModel = OpenAiChatModel.builder()
            .options(OpenAiChatOptions.builder()
                .baseUrl(baseUrl)
                .apiKey(apiKey == null || apiKey.isBlank() ? "not-needed" : apiKey)
                .model("default")
                .maxRetries(0)
                .timeout(Duration.ofMinutes(10)) // the gateway's deadline cancels long before
                .build())
            .httpClientBuilderCustomizer(builder -> builder.interceptor(new TapInterceptor())
                // OkHttp keeps 5 idle connections by default: with more calls in flight than that, every
                // call past the fifth opened a new connection and closed it after the answer
                .maxIdleConnections(IDLE_CONNECTIONS).keepAliveDuration(Duration.ofMinutes(5))
                // streams run on OkHttp's dispatcher, one thread each for as long as the stream lasts:
                // virtual threads, so thousands of open streams pin no platform thread
                .dispatcherExecutorService(java.util.concurrent.Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("sluice-llm-stream-", 0).factory())))
            .build();
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "sluice-llm-deadlines");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true); // most calls answer in time: their timers must not pile up
        this.deadlines = timer;
    }

    @Override
    public ProviderResult call(String model, List<LlmMessage> messages, int maxTokens, Duration timeout) {
        String tapId = Long.toString(tapIds.incrementAndGet());
        Tap tap = new Tap();
        taps.put(tapId, tap);
        Prompt prompt = prompt(model, messages, maxTokens, tapId, false);
        // the call runs on the caller's thread; at the deadline a timer cancels its HTTP exchange, which
        // makes the SDK throw at once (no hand-off to a worker thread and back on every call)
        ScheduledFuture<?> deadline = deadlines.schedule(tap::cancel, Math.max(1, timeout.toNanos()), TimeUnit.NANOSECONDS);
        try {
            ChatResponse response = chatModel.call(prompt);
            Generation result = response.getResult();
            String text = result == null || result.getOutput() == null ? "" : result.getOutput().getText();
            Usage usage = response.getMetadata().getUsage();
            return new ProviderResult.Answered(text == null ? "" : text, tokens(usage.getPromptTokens()),
                tokens(usage.getCompletionTokens()), tap.rateLimit());
        } catch (RuntimeException e) {
            if (tap.cancelled()) {
                return new ProviderResult.Failed(ProviderResult.Kind.TIMEOUT, "no answer within " + timeout.toMillis() + " ms",
                    tap.rateLimit());
            }
            return classify(e, tap);
        } finally {
            deadline.cancel(false);
            taps.remove(tapId);
        }
    }

    @Override
    public Cancellable stream(String model, List<LlmMessage> messages, int maxTokens, StreamHandler handler) {
        String tapId = Long.toString(tapIds.incrementAndGet());
        Tap tap = new Tap();
        taps.put(tapId, tap);
        AtomicBoolean finished = new AtomicBoolean();
        AtomicInteger promptTokens = new AtomicInteger();
        AtomicInteger completionTokens = new AtomicInteger();
        Disposable subscription = chatModel.stream(prompt(model, messages, maxTokens, tapId, true))
            .doFinally(signal -> taps.remove(tapId))
            .subscribe(response -> {
                Generation result = response.getResult();
                if (result != null) {
                    String text = result.getOutput() == null ? null : result.getOutput().getText();
                    if (text != null && !text.isEmpty()) {
                        handler.onToken(text);
                    }
                    String finish = result.getMetadata() == null ? null : result.getMetadata().getFinishReason();
                    if (finish != null && !finish.isBlank()) {
                        finished.set(true);
                    }
                }
                Usage usage = response.getMetadata() == null ? null : response.getMetadata().getUsage();
                if (usage != null && usage.getPromptTokens() != null && usage.getPromptTokens() > 0) {
                    promptTokens.set(usage.getPromptTokens());
                    completionTokens.set(tokens(usage.getCompletionTokens()));
                }
            }, error -> handler.onError(classify(error, tap)),
                () -> handler.onComplete(promptTokens.get(), completionTokens.get(), finished.get()));
        return () -> {
            tap.cancel();
            subscription.dispose();
        };
    }

    @Override
    public void close() {
        deadlines.shutdownNow();
    }

    private static Prompt prompt(String model, List<LlmMessage> messages, int maxTokens, String tapId, boolean stream) {
        List<Message> converted = messages.stream().map(SpringAiProviderClient::message).toList();
        OpenAiChatOptions.Builder options = OpenAiChatOptions.builder()
            .model(model)
            .maxTokens(maxTokens)
            .customHeaders(Map.of(TAP_HEADER, tapId));
        if (stream) {
            options.streamUsage(true);
        }
        return new Prompt(converted, options.build());
    }

    private static Message message(LlmMessage message) {
        return switch (message.role()) {
            case SYSTEM -> new SystemMessage(message.content());
            case USER -> new UserMessage(message.content());
            case ASSISTANT -> new AssistantMessage(message.content());
        };
    }

    private static int tokens(Integer value) {
        return value == null ? 0 : value;
    }

    static ProviderResult classify(Throwable error, Tap tap) {
        RateLimitInfo headers = tap.rateLimit();
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof OpenAIServiceException service) {
                int status = service.statusCode();
                if (status == 429) {
                    return new ProviderResult.RateLimited(headers.retryAfter(), headers);
                }
                ProviderResult.Kind kind = status >= 500 ? ProviderResult.Kind.SERVER_ERROR : ProviderResult.Kind.CLIENT_ERROR;
                return new ProviderResult.Failed(kind, "HTTP " + status, headers);
            }
            if (t instanceof OpenAIInvalidDataException || t.getClass().getName().startsWith("com.fasterxml.jackson.")
                    || t.getClass().getName().startsWith("tools.jackson.")) {
                return new ProviderResult.Failed(ProviderResult.Kind.UNPARSABLE, "unparsable answer: " + t.getMessage(), headers);
            }
            if (t instanceof OpenAIIoException || t instanceof IOException) {
                return new ProviderResult.Failed(tap.cancelled() ? ProviderResult.Kind.TIMEOUT : ProviderResult.Kind.IO,
                    String.valueOf(t.getMessage()), headers);
            }
        }
        return new ProviderResult.Failed(ProviderResult.Kind.UNPARSABLE,
            error.getClass().getSimpleName() + ": " + error.getMessage(), headers);
    }

    /** One exchange as the interceptor saw it. */
    static final class Tap {
        private volatile Call call;
        private volatile boolean cancelled;
        private volatile RateLimitInfo rateLimit = RateLimitInfo.NONE;

        void cancel() {
            cancelled = true;
            Call c = call;
            if (c != null) {
                c.cancel();
            }
        }

        boolean cancelled() {
            return cancelled;
        }

        RateLimitInfo rateLimit() {
            return rateLimit;
        }
    }

    private volatile boolean widened;

    /**
     * The SDK's dispatcher lets 64 async calls (streams) run at once, per host too, and queues the rest:
     * the gateway's permits bound calls in flight, not this; widened on the first call (queued ones start).
     */
    private void widenDispatcher(Call call) {
        if (!widened && call instanceof okhttp3.internal.connection.RealCall real) {
            real.getClient().dispatcher().setMaxRequests(MAX_CALLS);
            real.getClient().dispatcher().setMaxRequestsPerHost(MAX_CALLS);
            widened = true;
        }
    }

    private final class TapInterceptor implements Interceptor {
        @Override
        public Response intercept(Chain chain) throws IOException {
            widenDispatcher(chain.call());
            Request request = chain.request();
            String tapId = request.header(TAP_HEADER);
            Tap tap = tapId == null ? null : taps.get(tapId);
            if (tapId != null) {
                request = request.newBuilder().removeHeader(TAP_HEADER).build();
            }
            if (tap != null) {
                tap.call = chain.call();
                if (tap.cancelled) {
                    chain.call().cancel();
                }
            }
            Response response = chain.proceed(request);
            if (tap != null) {
                tap.rateLimit = RateLimitInfo.from(response::header);
            }
            return response;
        }
    }
}
