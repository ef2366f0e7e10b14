package io.sluice.bench.chat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.admission.AdmissionProperties;
import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.auth.ApiClient;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.chat.AdmissionStep;
import io.sluice.api.chat.Answer;
import io.sluice.api.chat.CacheStep;
import io.sluice.api.chat.ChatContext;
import io.sluice.api.chat.ChatPipeline;
import io.sluice.api.chat.ChatRequest;
import io.sluice.api.chat.ChatResponse;
import io.sluice.api.chat.ChatStep;
import io.sluice.api.chat.IngressStep;
import io.sluice.api.chat.IntentStep;
import io.sluice.api.chat.LevelStep;
import io.sluice.api.chat.LlmAccess;
import io.sluice.api.chat.SemanticCache;
import io.sluice.api.chat.SessionStep;
import io.sluice.api.ingress.GlobalLimiter;
import io.sluice.api.ingress.LoadMonitor;
import io.sluice.api.ingress.RateLimitProperties;
import io.sluice.api.ingress.UserTokenBucket;
import io.sluice.api.intent.RuleIntentClassifier;
import io.sluice.api.masking.PiiMasker;
import io.sluice.api.session.SessionProperties;
import io.sluice.api.session.SessionStore;
import io.sluice.api.session.Turn;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationProperties;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.gateway.LlmStream;
import io.sluice.governance.gateway.LlmStreamListener;
import io.sluice.governance.tier.FidelityTier;

import org.HdrHistogram.Histogram;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

import tools.jackson.databind.json.JsonMapper;

/**
 * Chat pipeline overhead, excluding the LLM and retrieval: the real steps (Redis token bucket,
 * session, intent rules, level, masking + Redis session append, cache seam, admission) around an
 * answer step that returns a fixed answer at once. PostgreSQL writes are left out (measured by the
 * database's own benchmarks). Needs {@code SLUICE_REDIS_URL} (scripts/services-up.sh).
 *
 * <pre>./mvnw -q -pl bench -am compile exec:java … or run the main class from the IDE</pre>
 */
public final class ChatPipelineBench {

    static final int WARMUP = 3_000;
    static final int MEASURED = 20_000;
    static final long THROUGHPUT_SECONDS = 5;
    static final String[] MESSAGES = {
        "退款多久到账？", "我要投诉，客服态度太差了", "怎么查物流", "付款失败了但是钱被扣了，手机13812345678",
        "how do I track my order", "优惠券为什么不能用", "忘记密码怎么办", "I was charged twice, card 4111111111111111"};

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("SLUICE_REDIS_URL", "");
        if (url.isBlank()) {
            System.err.println("SLUICE_REDIS_URL is not set: eval \"$(scripts/services-up.sh)\" first");
            System.exit(2);
        }
        Config config = new Config();
        config.useSingleServer().setAddress(url);
        RedissonClient redisson = Redisson.create(config);
        String prefix = "bench:" + System.nanoTime() + ":";
        try {
            ChatPipeline pipeline = pipeline(redisson, prefix);
            ApiClient client = new ApiClient(1, "bench", "sk-sluice-bench", ClientTier.STANDARD);

            System.out.printf("machine: %d cores, Java %s, %s%n", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), System.getProperty("os.name"));
            System.out.printf("redis: %s%n", url.replaceAll("//[^@/]*@", "//***@"));
            System.out.printf("method: %d warm-up + %d measured sequential requests through the real steps, "
                + "fixed F1 answer (no LLM, no retrieval, no PostgreSQL); then %d s on 2 threads%n",
                WARMUP, MEASURED, THROUGHPUT_SECONDS);

            for (int i = 0; i < WARMUP; i++) {
                run(pipeline, client, i);
            }
            Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            for (int i = 0; i < MEASURED; i++) {
                long started = System.nanoTime();
                run(pipeline, client, i);
                latency.recordValue(System.nanoTime() - started);
            }
            System.out.printf("overhead per request: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms%n",
                ms(latency.getValueAtPercentile(50)), ms(latency.getValueAtPercentile(90)),
                ms(latency.getValueAtPercentile(99)), ms(latency.getMaxValue()));

            AtomicLong done = new AtomicLong();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(THROUGHPUT_SECONDS);
            Thread[] threads = new Thread[2];
            for (int t = 0; t < threads.length; t++) {
                int offset = t * 1_000_000;
                threads[t] = new Thread(() -> {
                    int i = offset;
                    while (System.nanoTime() < end) {
                        run(pipeline, client, i++);
                        done.incrementAndGet();
                    }
                });
                threads[t].start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            System.out.printf("throughput (2 threads): %.0f req/s%n", done.get() / (double) THROUGHPUT_SECONDS);
        } finally {
            redisson.getKeys().deleteByPattern(prefix + "*");
            redisson.shutdown();
        }
    }

    static void run(ChatPipeline pipeline, ApiClient client, int i) {
        ChatContext ctx = new ChatContext(client,
            new ChatRequest("user-" + (i % 1_000), null, MESSAGES[i % MESSAGES.length]));
        pipeline.run(ctx);
        if (ctx.answer() == null) {
            throw new IllegalStateException("no answer");
        }
    }

    static ChatPipeline pipeline(RedissonClient redisson, String prefix) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RateLimitProperties.User user = new RateLimitProperties.User(1e9, 1e9, 3, 0.5, prefix + "bucket:",
            Duration.ofSeconds(5));
        RateLimitProperties.Global global = RateLimitProperties.Global.perInstance(1e9, 1e9, Duration.ofSeconds(1), 6000, 0.25,
            2, 0.7, 0.02, 20);
        LoadMonitor load = new LoadMonitor(2048, Duration.ofSeconds(30));
        SessionStore sessions = new SessionStore(redisson, null, JsonMapper.builder().build(),
            new SessionProperties(Duration.ofMinutes(5), 12, prefix + "session:"), meters);
        DegradationControl degradation = new DegradationControl(redisson, new DegradationProperties(
            prefix + "degradation:", false, Duration.ofSeconds(1), Duration.ofMinutes(3), Duration.ofSeconds(30), null,
            null), List.of(), meters, Clock.systemUTC());
        PiiMasker masker = new PiiMasker();
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("gateway", new AvailableGateway());
        Answer fixed = new Answer("退款审核通过后原路退回，1-3 个工作日到账。", FidelityTier.F1,
            List.of(new ChatResponse.Source("faq", "2", "退款多久到账？", 3.1f)));

        ChatStep record = (ctx, next) -> {
            next.proceed(ctx);
            String question = masker.mask(ctx.message());
            String reply = masker.mask(ctx.answer().text());
            long now = System.currentTimeMillis();
            sessions.append(ctx.session().id(), ctx.client().id(), ctx.request().userId(),
                List.of(new Turn("USER", question, now), new Turn("ASSISTANT", reply, now)));
        };
        ChatStep answer = (ctx, next) -> {
            ctx.answer(fixed);
            next.proceed(ctx);
        };
        return new ChatPipeline(List.of(
            new IngressStep(new UserTokenBucket(redisson, user, meters), new GlobalLimiter(global, load, meters)),
            new SessionStep(sessions),
            new IntentStep(new RuleIntentClassifier()),
            new LevelStep(degradation),
            record,
            new CacheStep(new StaticListableBeanFactory().getBeanProvider(SemanticCache.class)),
            new AdmissionStep(new PriorityAdmission(AdmissionProperties.defaults(64)),
                new LlmAccess(beans.getBeanProvider(LlmGateway.class))),
            answer));
    }

    static double ms(long nanos) {
        return nanos / 1_000_000.0;
    }

    /** Reports itself available so admission runs; never called (the answer is fixed). */
    static final class AvailableGateway implements LlmGateway {
        @Override
        public boolean available() {
            return true;
        }

        @Override
        public LlmOutcome call(LlmRequest request) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LlmStream stream(LlmRequest request, LlmStreamListener listener) {
            throw new UnsupportedOperationException();
        }
    }
}
