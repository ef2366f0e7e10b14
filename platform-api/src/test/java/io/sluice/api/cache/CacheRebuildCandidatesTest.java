package io.sluice.api.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.masking.PiiMasker;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

/** Which logged questions the semantic-cache rebuild warms, and with which stored answer. */
class CacheRebuildCandidatesTest {

    static final String SOURCES = "[{\"kind\":\"document\",\"id\":\"policy-points\",\"title\":\"积分\",\"score\":0.9}]";

    final CacheRebuild rebuild = new CacheRebuild(null, null, JsonMapper.builder().build(), new PiiMasker(),
        new TurnEligibility(new PiiMasker(), 300), new CacheRebuildProperties(Duration.ofHours(24), Duration.ofDays(7), 2, 2, 1000),
        () -> "primary", new SimpleMeterRegistry());

    static CacheRebuild.Asked asked(long client, String question, String answer, String tier, String feedback, long at) {
        return new CacheRebuild.Asked(client, question, answer, tier, false, feedback, SOURCES, at);
    }

    @Test
    void frequentQuestionsOfAClientAreWarmedWithTheirNewestF4AnswerMostFrequentFirst() {
        List<CacheRebuild.Asked> log = new ArrayList<>();
        log.add(asked(1, "会员积分多久过期？", "old answer", "F4", null, 1_000));
        log.add(asked(1, "会员积分多久过期", "newest F4 answer", "F4", null, 3_000));
        log.add(asked(1, "会员积分 多久过期!", "a later F2 answer", "F2", null, 4_000)); // same question, not F4
        log.add(asked(1, "退货运费谁承担", "运费由卖家承担", "F4", null, 2_000));
        log.add(asked(1, "退货运费谁承担", "运费由卖家承担", "F4", null, 2_500));
        log.add(asked(1, "发票怎么开", "only asked once", "F4", null, 2_000));
        log.add(asked(2, "发票怎么开", "another client", "F4", null, 2_100)); // per client: still once each

        List<CacheRebuild.Candidate> candidates = rebuild.candidates(log);

        assertThat(candidates).extracting(CacheRebuild.Candidate::question, CacheRebuild.Candidate::answer,
                CacheRebuild.Candidate::occurrences)
            .containsExactly(
                org.assertj.core.groups.Tuple.tuple("会员积分多久过期", "newest F4 answer", 3),
                org.assertj.core.groups.Tuple.tuple("退货运费谁承担", "运费由卖家承担", 2));
        assertThat(candidates.get(0).sources()).singleElement()
            .satisfies(s -> assertThat(s.kind() + ":" + s.id()).isEqualTo("document:policy-points"));
        assertThat(candidates.get(0).answeredAt()).isEqualTo(3_000);
    }

    @Test
    void questionsWithNegativeFeedbackNoF4AnswerOrAnUncacheableWordingAreNotWarmed() {
        List<CacheRebuild.Asked> log = new ArrayList<>();
        log.add(asked(1, "快递几天到", "三天", "F4", null, 1_000));
        log.add(asked(1, "快递几天到", "三天", "F4", "NOT_HELPFUL", 2_000));
        log.add(asked(1, "人工客服电话", "FAQ answer", "F1", null, 1_000));
        log.add(asked(1, "人工客服电话", "FAQ answer", "F1", null, 2_000));
        log.add(asked(1, "我的手机138****5678收不到验证码", "检查短信拦截", "F4", null, 1_000));
        log.add(asked(1, "我的手机138****5678收不到验证码", "检查短信拦截", "F4", null, 2_000));
        log.add(asked(1, "怎么退货？另外运费谁出？", "两个问题", "F4", null, 1_000));
        log.add(asked(1, "怎么退货？另外运费谁出？", "两个问题", "F4", null, 2_000));
        log.add(asked(1, "那这个呢", "follow-up", "F4", null, 1_000));
        log.add(asked(1, "那这个呢", "follow-up", "F4", null, 2_000));

        assertThat(rebuild.candidates(log)).isEmpty();
    }

    @Test
    void atMostTopQuestionsAreWarmed() {
        List<CacheRebuild.Asked> log = new ArrayList<>();
        for (String q : List.of("会员积分多久过期", "退货运费谁承担", "发票怎么开具")) {
            log.add(asked(1, q, "answer " + q, "F4", null, 1_000));
            log.add(asked(1, q, "answer " + q, "F4", null, 2_000));
        }
        log.add(asked(1, "发票怎么开具", "answer 发票怎么开具", "F4", null, 3_000));

        assertThat(rebuild.candidates(log)).extracting(CacheRebuild.Candidate::question)
            .containsExactly("发票怎么开具", "会员积分多久过期");
    }
}
