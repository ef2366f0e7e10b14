package io.sluice.api.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.auth.ApiClient;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.chat.Answer;
import io.sluice.api.chat.ChatContext;
import io.sluice.api.chat.ChatRequest;
import io.sluice.api.chat.ChatResponse;
import io.sluice.api.chat.SemanticCache;
import io.sluice.api.masking.PiiMasker;
import io.sluice.api.session.SessionContext;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationProperties;
import io.sluice.governance.tier.FidelityTier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import tools.jackson.databind.json.JsonMapper;

/**
 * The semantic cache under degradation, against the real Redis and the real ONNX embedder: an L2 hit
 * refreshes L1, entries are served past their ttl at levels with a grace (L2 6 h, L3 24 h by default, the
 * level→knobs map), and long answers are served in their stored short form at L3.
 */
class CacheUnderDegradationTest {

    final String prefix = "test:cache-degraded:" + UUID.randomUUID() + ":";
    final RedissonClient redisson = RedisSemanticCacheTest.redisson();
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final ApiClient client = new ApiClient(System.nanoTime(), "t", "sk-sluice-t", ClientTier.STANDARD);

    RedisSemanticCache cache(Duration ttl) {
        CacheProperties d = CacheProperties.defaults();
        CacheProperties p = new CacheProperties(true, prefix, "v1", ttl, 100, 300, d.flightLease(), d.flightWait(), 80);
        return new RedisSemanticCache(redisson, RedisSemanticCacheTest.EMBEDDER, JsonMapper.builder().build(), p, () -> 1,
            new TurnEligibility(new PiiMasker(), 300), new HitVerifier(), meters);
    }

    @AfterEach
    void close() {
        redisson.getKeys().deleteByPattern(prefix + "*");
        redisson.shutdown();
    }

    ChatContext ctx(String message, DegradationLevel level) {
        ChatContext ctx = new ChatContext(client, new ChatRequest("u1", null, message));
        ctx.session(new SessionContext(UUID.randomUUID(), false, List.of()));
        ctx.level(level, DegradationProperties.defaults().levels().get(level));
        return ctx;
    }

    void answerAndOffer(RedisSemanticCache cache, String message, String answer) {
        ChatContext ctx = ctx(message, DegradationLevel.L0);
        assertThat(cache.lookup(ctx)).isEmpty();
        ctx.answer(new Answer(answer, FidelityTier.F4, List.of(new ChatResponse.Source("faq", "7", "q", 1f))));
        cache.offer(ctx);
    }

    double count(String name, String... tags) {
        var c = meters.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void anL2HitRefreshesL1SoTheSameQuestionIsThenAnExactHitWithTheSimilarityItWasVerifiedAt() {
        RedisSemanticCache cache = cache(Duration.ofHours(6));
        answerAndOffer(cache, "优惠券能叠加使用吗", "每单限用一张。");

        Optional<SemanticCache.Hit> first = cache.lookup(ctx("优惠券可以叠加吗", DegradationLevel.L0));
        assertThat(first).isPresent();
        assertThat(count("sluice.cache.lookups", "layer", "l2", "result", "hit")).isEqualTo(1);
        assertThat(count("sluice.cache.l1_refreshed")).isEqualTo(1);
        double l1HitsBefore = count("sluice.cache.lookups", "layer", "l1", "result", "hit");

        Optional<SemanticCache.Hit> again = cache.lookup(ctx("优惠券可以叠加吗？", DegradationLevel.L0));

        assertThat(again).isPresent();
        assertThat(again.get().answer().text()).isEqualTo("每单限用一张。");
        assertThat(again.get().similarity()).isEqualTo(first.get().similarity()).isLessThan(1.0);
        assertThat(count("sluice.cache.lookups", "layer", "l1", "result", "hit")).isEqualTo(l1HitsBefore + 1);
        assertThat(count("sluice.cache.lookups", "layer", "l2", "result", "hit")).as("no second L2 scan").isEqualTo(1);
        // the stored question's own entry is untouched: it is still an exact hit of similarity 1
        assertThat(cache.lookup(ctx("优惠券能叠加使用吗", DegradationLevel.L0)).get().similarity()).isEqualTo(1.0);
    }

    @Test
    void pastItsTtlAnEntryIsServedOnlyAtLevelsWithAGraceAndRedisKeepsItThatLong() {
        RedisSemanticCache cache = cache(Duration.ofSeconds(2));
        answerAndOffer(cache, "退款多久到账", "1-3 个工作日原路退回。");
        String space = cache.space(client.id(), "primary");
        assertThat(redisson.getKeys().remainTimeToLive(space + ":e"))
            .as("Redis keeps it for the ttl plus the longest grace (24 h at L3)")
            .isGreaterThan(Duration.ofHours(23).toMillis());

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
            .until(() -> cache.lookup(ctx("退款多久到账", DegradationLevel.L0)).isEmpty());
        assertThat(cache.lookup(ctx("退款多久到账", DegradationLevel.L1))).as("L1 has no grace").isEmpty();

        // L2 / L3 answer on the light route: their own key space is empty, the primary one (L0's) is read too
        Optional<SemanticCache.Hit> l2 = cache.lookup(ctx("退款多久到账", DegradationLevel.L2));
        Optional<SemanticCache.Hit> l3 = cache.lookup(ctx("退款多久到账", DegradationLevel.L3));

        assertThat(l2).isPresent();
        assertThat(l2.get().answer().text()).isEqualTo("1-3 个工作日原路退回。");
        assertThat(l2.get().answer().tier()).isEqualTo(FidelityTier.F4);
        assertThat(l3).isPresent();
        assertThat(count("sluice.cache.grace_hits")).isEqualTo(2);
    }

    @Test
    void atL3ALongAnswerIsServedInItsShortFormStoredWhenItWasWritten() {
        RedisSemanticCache cache = cache(Duration.ofHours(6));
        String longAnswer = "退货运费由责任方承担：商品质量问题由商家承担运费。非质量问题的七天无理由退货，运费由买家自行承担。"
            + "如果您购买了运费险，退货时系统会自动理赔，理赔金额将在确认收货后的72小时内打到您的账户。"
            + "大件商品请预约上门取件，取件费用按照当地标准收取。";
        answerAndOffer(cache, "退货的运费谁来出", longAnswer);

        Optional<SemanticCache.Hit> l0 = cache.lookup(ctx("退货的运费谁来出", DegradationLevel.L0));
        Optional<SemanticCache.Hit> l3 = cache.lookup(ctx("退货的运费谁来出", DegradationLevel.L3));

        assertThat(l0.get().answer().text()).isEqualTo(longAnswer);
        String shortForm = l3.get().answer().text();
        assertThat(shortForm).isEqualTo("退货运费由责任方承担：商品质量问题由商家承担运费。非质量问题的七天无理由退货，运费由买家自行承担。");
        assertThat(shortForm.length()).isLessThanOrEqualTo(80);
        assertThat(l3.get().answer().sources()).isEqualTo(l0.get().answer().sources());
        assertThat(count("sluice.cache.short_forms")).isEqualTo(1);
    }

    @Test
    void theShortFormIsTheFirstSentencesWithinTheLimitOrACutWithAnEllipsis() {
        assertThat(ShortForm.of("Short answer.", 80)).isNull();
        assertThat(ShortForm.of("You have 30 days from delivery. In December the period runs to 31 January. "
            + "Items must be unused and in their box.", 80))
            .isEqualTo("You have 30 days from delivery. In December the period runs to 31 January.");
        assertThat(ShortForm.of("a".repeat(100), 40)).isEqualTo("a".repeat(40) + "…");
        assertThat(ShortForm.of("Version 2.5 is out and it is a long sentence without an end inside the limit", 40))
            .endsWith("…");
    }
}
