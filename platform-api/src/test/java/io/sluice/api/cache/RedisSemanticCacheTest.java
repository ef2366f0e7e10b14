package io.sluice.api.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.auth.ApiClient;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.chat.Answer;
import io.sluice.api.chat.ChatContext;
import io.sluice.api.chat.ChatRequest;
import io.sluice.api.chat.ChatResponse;
import io.sluice.api.chat.SemanticCache;
import io.sluice.api.intent.IntentResult;
import io.sluice.api.intent.Priority;
import io.sluice.api.masking.PiiMasker;
import io.sluice.api.session.SessionContext;
import io.sluice.api.session.Turn;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationProperties;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.embedding.CachingEmbedder;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.OnnxBgeEmbedder;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import tools.jackson.databind.json.JsonMapper;

/** The cache against the real Redis ({@code SLUICE_REDIS_URL}) and the real ONNX embedder. */
class RedisSemanticCacheTest {

    static final Embedder EMBEDDER = new CachingEmbedder(new OnnxBgeEmbedder(8, Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "test-embed");
        t.setDaemon(true);
        return t;
    })), 512);

    final String prefix = "test:cache:" + UUID.randomUUID() + ":";
    final RedissonClient redisson = redisson();
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final AtomicLong knowledgeVersion = new AtomicLong(1);
    final ApiClient client = new ApiClient(System.nanoTime(), "t", "sk-sluice-t", ClientTier.STANDARD);
    final RedisSemanticCache cache = cache(redisson);

    RedisSemanticCache cache(RedissonClient r) {
        return cache(r, CacheProperties.defaults().nearHitAge());
    }

    RedisSemanticCache cache(RedissonClient r, Duration nearHitAge) {
        CacheProperties d = CacheProperties.defaults();
        CacheProperties p = new CacheProperties(true, prefix, "v1", d.ttl(), 100, 300, d.flightLease(), d.flightWait(),
            d.shortFormChars(), nearHitAge);
        return new RedisSemanticCache(r, EMBEDDER, JsonMapper.builder().build(), p, knowledgeVersion::get,
            new TurnEligibility(new PiiMasker(), 300), new HitVerifier(), meters);
    }

    static RedissonClient redisson() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: run `eval \"$(scripts/services-up.sh)\"` first");
        }
        return Redisson.create(io.sluice.governance.cluster.RedisTopology.ofUrl(url).toConfig(3_000, 3_000, 3));
    }

    // the other instances' clients, shut down after each test
    final List<RedissonClient> others = new ArrayList<>();

    @AfterEach
    void close() {
        redisson.getKeys().deleteByPattern(prefix + "*");
        redisson.shutdown();
        others.forEach(RedissonClient::shutdown);
    }

    /** Another instance on its own client, listening on the change channel when it keeps near hits at all. */
    RedisSemanticCache otherInstance(Duration nearHitAge) {
        RedissonClient other = redisson();
        others.add(other);
        RedisSemanticCache instance = cache(other, nearHitAge);
        if (!nearHitAge.isZero()) {
            await().atMost(Duration.ofSeconds(10)).until(instance::nearHitsListening);
        }
        return instance;
    }

    ChatContext ctx(String message) {
        return ctx(message, DegradationLevel.L0, List.of());
    }

    ChatContext ctx(String message, DegradationLevel level, List<Turn> turns) {
        ChatContext ctx = new ChatContext(client, new ChatRequest("u1", null, message));
        ctx.session(new SessionContext(UUID.randomUUID(), !turns.isEmpty(), turns));
        ctx.level(level, DegradationProperties.defaults().levels().get(level));
        return ctx;
    }

    /** Miss, then the pipeline answers and offers (what CacheStep does). */
    void answerAndOffer(String message, String answer, FidelityTier tier, String faqId) {
        ChatContext ctx = ctx(message);
        assertThat(cache.lookup(ctx)).isEmpty();
        ctx.answer(new Answer(answer, tier, List.of(new ChatResponse.Source("faq", faqId, "q", 1f))));
        cache.offer(ctx);
    }

    double count(String name, String... tags) {
        var c = meters.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void anExactRepeatIsAnL1HitWithSimilarityOneIgnoringCaseWidthAndPunctuation() {
        answerAndOffer("退款多久到账？", "1-3 个工作日。", FidelityTier.F4, "2");

        Optional<SemanticCache.Hit> hit = cache.lookup(ctx("  退款多久到账?? "));

        assertThat(hit).isPresent();
        assertThat(hit.get().similarity()).isEqualTo(1.0);
        assertThat(hit.get().answer().text()).isEqualTo("1-3 个工作日。");
        assertThat(hit.get().answer().tier()).isEqualTo(FidelityTier.F4);
        assertThat(count("sluice.cache.lookups", "layer", "l1", "result", "hit")).isEqualTo(1);
    }

    @Test
    void aParaphraseIsAnL2HitCarryingItsSimilarityAndANegatedQuestionIsNotServed() {
        answerAndOffer("优惠券能叠加使用吗", "每单限用一张。", FidelityTier.F4, "7");

        Optional<SemanticCache.Hit> paraphrase = cache.lookup(ctx("优惠券可以叠加吗"));
        Optional<SemanticCache.Hit> negated = cache.lookup(ctx("优惠券不能叠加使用吗", DegradationLevel.L3, List.of()));

        assertThat(paraphrase).isPresent();
        assertThat(paraphrase.get().similarity()).isBetween(0.92, 0.9999);
        assertThat(paraphrase.get().answer().text()).isEqualTo("每单限用一张。");
        assertThat(count("sluice.cache.lookups", "layer", "l2", "result", "hit")).isEqualTo(1);
        assertThat(negated).isEmpty();
    }

    @Test
    void aCloseQuestionWithDifferentNumbersIsRefusedAndCountedAsAVerificationRejection() {
        answerAndOffer("is it 20 percent off for two items", "Yes, 20% off for two.", FidelityTier.F4, "8");

        Optional<SemanticCache.Hit> three = cache.lookup(ctx("is it 20 percent off for three items"));

        assertThat(three).isEmpty();
        assertThat(count("sluice.cache.rejections", "reason", "numbers")).isEqualTo(1);
        assertThat(count("sluice.cache.lookups", "layer", "l2", "result", "miss")).isEqualTo(2);
    }

    @Test
    void f1AnswersAreNeverCachedAndFollowUpsOrPersonalMessagesAreNeitherServedNorStored() {
        answerAndOffer("发票怎么开", "自动回答", FidelityTier.F1, "3");
        assertThat(cache.lookup(ctx("发票怎么开"))).isEmpty();

        answerAndOffer("会员积分应该怎么使用", "积分可抵现。", FidelityTier.F2, "4");
        List<Turn> earlier = List.of(new Turn("USER", "积分怎么用", 1), new Turn("ASSISTANT", "积分可抵现。", 2));
        assertThat(cache.lookup(ctx("那它呢", DegradationLevel.L0, earlier))).isEmpty();
        assertThat(cache.lookup(ctx("会员积分应该怎么使用", DegradationLevel.L0, earlier))).isPresent();
        assertThat(cache.lookup(ctx("我的手机号13812345678积分怎么用"))).isEmpty();
        assertThat(count("sluice.cache.skipped", "reason", "personal_data")).isEqualTo(1);
    }

    @Test
    void keySpacesSeparateClientsAndKnowledgeVersions() {
        answerAndOffer("会员有什么权益", "会员包邮。", FidelityTier.F4, "5");
        assertThat(cache.lookup(ctx("会员有什么权益"))).isPresent();

        knowledgeVersion.incrementAndGet();

        assertThat(cache.lookup(ctx("会员有什么权益"))).isEmpty();
    }

    @Test
    void anExactHitBringsTheStoredIntentAndARepeatReadsOnlyTheEntryIdButNeverServesADroppedOrReplacedEntry() {
        ChatContext first = ctx("运费险怎么买");
        first.intent(new IntentResult("returns", Priority.A, 0.9, "rules", List.of()));
        assertThat(cache.lookup(first)).isEmpty();
        first.answer(new Answer("下单时勾选运费险。", FidelityTier.F4, List.of(new ChatResponse.Source("faq", "21", "q", 1f))));
        cache.offer(first);

        SemanticCache.Hit hit = cache.lookup(ctx("运费险怎么买")).orElseThrow();
        assertThat(hit.intent().code()).isEqualTo("returns");
        assertThat(hit.intent().priority()).isEqualTo(Priority.A);
        // the entry's JSON is not read again for a repeat: only its id (unchanged) comes back from Redis
        String space = cache.space(ctx("运费险怎么买"));
        var entries = redisson.<String, String>getMap(space + ":e", StringCodec.INSTANCE);
        entries.keySet().forEach(id -> entries.put(id, "{not json"));
        assertThat(cache.lookup(ctx("运费险怎么买"))).get().extracting(h -> h.answer().text()).isEqualTo("下单时勾选运费险。");

        cache.invalidateSource("faq:21");
        assertThat(cache.lookup(ctx("运费险怎么买"))).isEmpty();
        ChatContext again = ctx("运费险怎么买");
        again.answer(new Answer("在确认订单页勾选。", FidelityTier.F4, List.of()));
        cache.offer(again);
        SemanticCache.Hit replaced = cache.lookup(ctx("运费险怎么买")).orElseThrow();
        assertThat(replaced.answer().text()).isEqualTo("在确认订单页勾选。");
        assertThat(replaced.intent()).isNull(); // stored without a classification: the request classifies itself
    }

    @Test
    void aWriteRenewsTheMirrorByFetchingOnlyTheNewEntryAndADroppedEntryIsNoLongerServed() {
        answerAndOffer("优惠券能叠加使用吗", "每单限用一张。", FidelityTier.F4, "7");
        answerAndOffer("怎么修改收货地址", "在订单页修改。", FidelityTier.F4, "11");
        assertThat(cache.lookup(ctx("优惠券可以叠加吗"))).isPresent();          // L2: the mirror holds both entries
        double fetched = count("sluice.cache.mirror.entries.fetched");

        answerAndOffer("发票怎么开", "在订单详情页申请。", FidelityTier.F4, "13"); // a write: the version moves on
        assertThat(cache.lookup(ctx("会员积分什么时候过期"))).isEmpty();        // an L2 lookup at the new version

        assertThat(count("sluice.cache.mirror.entries.fetched") - fetched).isEqualTo(1);
        cache.invalidateSource("faq:7");
        assertThat(cache.lookup(ctx("优惠券可以叠加吗"))).isEmpty();
        assertThat(cache.lookup(ctx("怎么修改收货地址"))).isPresent();
    }

    @Test
    void invalidatingASourceDropsEveryEntryThatUsedIt() {
        answerAndOffer("怎么修改收货地址", "在订单页修改。", FidelityTier.F4, "11");
        answerAndOffer("优惠券怎么用", "结算时选择。", FidelityTier.F4, "12");

        long dropped = cache.invalidateSource("faq:11");

        assertThat(dropped).isEqualTo(1);
        assertThat(cache.lookup(ctx("怎么修改收货地址"))).isEmpty();
        assertThat(cache.lookup(ctx("优惠券怎么用"))).isPresent();
    }

    @Test
    void aRepeatedExactHitIsServedWithoutAskingRedisUntilAnotherInstanceDropsIt() {
        answerAndOffer("退货的运费谁来出", "质量问题由商家承担。", FidelityTier.F4, "31");
        // an age far beyond the test: only the change channel can take the hit away
        RedisSemanticCache second = otherInstance(Duration.ofMinutes(10));
        assertThat(second.lookup(ctx("退货的运费谁来出"))).isPresent();   // asks Redis
        assertThat(second.lookup(ctx("退货的运费谁来出？"))).isPresent(); // does not
        assertThat(count("sluice.cache.l1.near")).isEqualTo(1);
        assertThat(count("sluice.cache.lookups", "layer", "l1", "result", "hit")).isEqualTo(2);

        cache.invalidateSource("faq:31");

        await().atMost(Duration.ofSeconds(10))
            .untilAsserted(() -> assertThat(second.lookup(ctx("退货的运费谁来出"))).isEmpty());
        assertThat(cache.lookup(ctx("退货的运费谁来出"))).isEmpty();
    }

    @Test
    void aQuestionAnL2HitPointedAtLosesItsNearHitWhenThatEntryIsDroppedElsewhere() {
        answerAndOffer("优惠券能叠加使用吗", "每单限用一张。", FidelityTier.F4, "7");
        RedisSemanticCache second = otherInstance(Duration.ofMinutes(10));
        assertThat(second.lookup(ctx("优惠券可以叠加吗"))).isPresent();   // L2, and L1 now points at the entry
        assertThat(second.lookup(ctx("优惠券可以叠加吗"))).get()           // L1 through the pointer
            .extracting(SemanticCache.Hit::similarity).isNotEqualTo(1.0);
        assertThat(second.lookup(ctx("优惠券可以叠加吗"))).isPresent();   // near
        assertThat(count("sluice.cache.l1.near")).isEqualTo(1);

        cache.invalidateSource("faq:7"); // names the stored question, not the paraphrase pointing at it

        await().atMost(Duration.ofSeconds(10))
            .untilAsserted(() -> assertThat(second.lookup(ctx("优惠券可以叠加吗"))).isEmpty());
    }

    @Test
    void withANearHitAgeOfZeroEveryExactHitAsksRedis() {
        answerAndOffer("会员有什么权益", "会员包邮。", FidelityTier.F4, "5");
        RedisSemanticCache second = otherInstance(Duration.ZERO);
        assertThat(second.lookup(ctx("会员有什么权益"))).isPresent();
        assertThat(second.lookup(ctx("会员有什么权益"))).isPresent();
        assertThat(count("sluice.cache.l1.near")).isZero();
    }

    @Test
    void aBurstOfTheSameQuestionAcrossTwoInstancesMakesOneAnswerCall() throws Exception {
        RedissonClient other = redisson();
        RedisSemanticCache second = cache(other);
        AtomicInteger llmCalls = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch asked = new CountDownLatch(12);
        ExecutorService pool = Executors.newFixedThreadPool(12);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                RedisSemanticCache instance = i % 2 == 0 ? cache : second;
                results.add(pool.submit(() -> {
                    start.await();
                    ChatContext ctx = ctx("怎么开具电子发票");
                    asked.countDown();
                    if (instance.lookup(ctx).isPresent()) {
                        return true;
                    }
                    llmCalls.incrementAndGet();
                    // the "LLM" answers only once every caller has asked: the burst is really concurrent
                    asked.await(10, TimeUnit.SECONDS);
                    ctx.answer(new Answer("在订单详情申请。", FidelityTier.F4, List.of()));
                    instance.offer(ctx);
                    return false;
                }));
            }
            start.countDown();
            int served = 0;
            for (Future<Boolean> f : results) {
                served += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(llmCalls.get()).isEqualTo(1);
            assertThat(served).isEqualTo(11);
        } finally {
            pool.shutdownNow();
            other.shutdown();
        }
    }
}
