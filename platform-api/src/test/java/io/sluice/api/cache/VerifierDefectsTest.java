package io.sluice.api.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.api.cache.HitVerifier.Verdict;
import io.sluice.api.masking.PiiMasker;

import org.junit.jupiter.api.Test;

/**
 * The defects measured on third-party traffic (issue 13), each refused by the built-in default: numerals
 * without a unit, direction, 无法 as a negation, Traditional Chinese read like Simplified, and 还有 / 另外
 * inside a single question no longer making it uncacheable.
 */
class VerifierDefectsTest {

    /** Pairs that were served from the cache although they need different answers. */
    static final String[][] WRONGLY_SERVED = {
        {"设定闹钟五点半", "设定闹钟六点半"},
        {"十三除以七", "十三除以三"},
        {"上海到郑州", "郑州到上海"},
        {"不能登录网银", "可以登录网银"},
        {"可以转账吗", "无法转账"},
        {"設定鬧鐘五點半", "设定闹钟六点半"},
    };

    final HitVerifier verifier = new HitVerifier();
    final TurnEligibility eligibility = new TurnEligibility(new PiiMasker(), 300);

    @Test
    void numeralsWithoutAUnitMustAgree() {
        assertThat(verifier.verify("设定闹钟五点半", "设定闹钟六点半")).isEqualTo(Verdict.NUMBERS);
        assertThat(verifier.verify("十三除以七", "十三除以三")).isEqualTo(Verdict.NUMBERS);
        assertThat(verifier.verify("十三除以七", "七除以十三")).isEqualTo(Verdict.NUMBERS);
        assertThat(verifier.verify("设定闹钟五点半", "设定闹钟五点")).isEqualTo(Verdict.NUMBERS);
        // an article or an idiom is no number
        assertThat(verifier.verify("我想问一下退款多久到账", "退款多久到账")).isEqualTo(Verdict.ACCEPTED);
        assertThat(verifier.verify("一个订单能用两张优惠券吗", "订单能用两张优惠券吗")).isEqualTo(Verdict.ACCEPTED);
    }

    @Test
    void directionAndRolesMustAgree() {
        assertThat(verifier.verify("上海到郑州", "郑州到上海")).isEqualTo(Verdict.DIRECTION);
        assertThat(verifier.verify("上海到郑州的火车", "从郑州去上海的火车")).isEqualTo(Verdict.DIRECTION);
        assertThat(verifier.verify("Train from London to Paris", "Train from Paris to London"))
            .isEqualTo(Verdict.DIRECTION);
        assertThat(verifier.verify("上海到郑州的火车", "从上海到郑州的火车")).isEqualTo(Verdict.ACCEPTED);
        assertThat(verifier.verify("退款多久到账", "退款几天能到账")).isEqualTo(Verdict.ACCEPTED);
    }

    @Test
    void wuFaIsANegationLikeBuNeng() {
        assertThat(verifier.verify("可以转账吗", "无法转账")).isEqualTo(Verdict.NEGATION);
        assertThat(verifier.verify("无法登录网银", "不能登录网银")).isEqualTo(Verdict.ACCEPTED);
        assertThat(verifier.verify("没法收到验证码", "收到了验证码")).isNotEqualTo(Verdict.ACCEPTED);
        assertThat(verifier.verify("无法收到验证码", "收不到验证码")).isEqualTo(Verdict.ACCEPTED);
        assertThat(verifier.verify("不可以提前还款吗", "可以提前还款吗")).isEqualTo(Verdict.NEGATION);
    }

    @Test
    void traditionalChineseReadsLikeSimplified() {
        assertThat(verifier.verify("設定鬧鐘五點半", "设定闹钟六点半")).isEqualTo(Verdict.NUMBERS);
        assertThat(verifier.verify("無法轉帳怎麼辦", "不能转账怎么办")).isEqualTo(Verdict.ACCEPTED);
        assertThat(verifier.verify("退貨運費誰出", "退货运费谁出")).isEqualTo(Verdict.ACCEPTED);
    }

    @Test
    void everyQuotedFailureIsRefusedByTheBuiltInDefault() {
        for (String[] pair : WRONGLY_SERVED) {
            assertThat(verifier.verify(pair[0], pair[1])).as(pair[0] + " / " + pair[1]).isNotEqualTo(Verdict.ACCEPTED);
        }
    }

    @Test
    void haiYouAndLingWaiInsideOneQuestionKeepItCacheable() {
        assertThat(eligibility.refusal("还有货吗", java.util.List.of())).isNull();
        assertThat(eligibility.refusal("另外一张卡怎么激活", java.util.List.of())).isNull();
        assertThat(eligibility.refusal("信用卡还有多少额度", java.util.List.of())).isNull();
        assertThat(eligibility.refusal("Can I also pay by card?", java.util.List.of())).isNull();
        // two questions are still two
        assertThat(eligibility.refusal("退货要多久？另外运费谁出", java.util.List.of())).isEqualTo("multi_intent");
        assertThat(eligibility.refusal("我想退货，还有运费谁出", java.util.List.of())).isEqualTo("multi_intent");
        assertThat(eligibility.refusal("退款多久到账？运费谁出？", java.util.List.of())).isEqualTo("multi_intent");
    }
}
