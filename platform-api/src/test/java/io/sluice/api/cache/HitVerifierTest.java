package io.sluice.api.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.api.cache.HitVerifier.Verdict;

import org.junit.jupiter.api.Test;

/** The verification rules on their own (the pair sets measure them as a whole). */
class HitVerifierTest {

    final HitVerifier verifier = new HitVerifier();

    static boolean negated(String question) {
        return new io.sluice.semantics.pairs.QuestionAnalyzer().analyze(question).negated();
    }

    @Test
    void englishUnOnAParticipleIsANegationButUnOnAVerbIsAnAction() {
        assertThat(verifier.verify("Can I return an opened item?", "Can I return an unopened item?"))
            .isEqualTo(Verdict.NEGATION);
        assertThat(verifier.verify("Is the order paid?", "Why is my order unpaid?")).isEqualTo(Verdict.NEGATION);
        assertThat(negated(("How do I get my account unlocked?"))).isFalse();
        assertThat(negated(("How do I unsubscribe from emails?"))).isFalse();
        assertThat(negated(("Do you ship to the United States?"))).isFalse();
    }

    @Test
    void notReceivedNamesAProblemThatBothQuestionsMustShare() {
        assertThat(verifier.verify("收到货了怎么申请退款", "没收到货怎么申请退款")).isEqualTo(Verdict.TERMS);
        assertThat(verifier.verify("验证码收到了但提示错误", "收不到验证码怎么办")).isNotEqualTo(Verdict.ACCEPTED);
        assertThat(verifier.verify("包裹一直没收到怎么办", "包裹还没有收到怎么办")).isEqualTo(Verdict.ACCEPTED);
    }

    @Test
    void restoringSomethingIsNotDoingIt() {
        assertThat(verifier.verify("订单怎么取消", "取消的订单怎么恢复")).isEqualTo(Verdict.TERMS);
        assertThat(verifier.verify("How do I cancel my order?", "How do I restore a cancelled order?"))
            .isEqualTo(Verdict.TERMS);
    }
}
