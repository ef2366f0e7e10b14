package io.sluice.api.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sluice.api.masking.PiiMasker;
import io.sluice.api.session.SessionFact;

import org.junit.jupiter.api.Test;

class FactExtractorTest {

    final FactExtractor extractor = new FactExtractor();
    final PiiMasker masker = new PiiMasker();

    List<SessionFact> extract(String question, String answer, String intent) {
        return extractor.extract(masker.mask(question), masker.mask(answer), intent, List.of(), 1L);
    }

    @Test
    void anOrderNumberAComplaintAndAPromiseAreFacts() {
        List<SessionFact> facts = extract("订单号 2023112233445 的耳机收到就坏了，我要投诉",
            "非常抱歉给您带来不便。我们会为您补发一副新耳机，并发放一张20元优惠券作为补偿。请问还有其他问题吗？", null);

        assertThat(facts).extracting(SessionFact::kind).containsExactly("order", "complaint", "promise");
        assertThat(facts.get(0).text()).contains("2023112233445");
        assertThat(facts.get(1).text()).contains("耳机收到就坏了");
        assertThat(facts.get(2).text()).contains("20元优惠券").doesNotContain("其他问题");
    }

    @Test
    void englishCodesAndPromisesToo() {
        List<SessionFact> facts = extract("My order #AB123456 never arrived and the iPhone case is missing",
            "Sorry about that. We will refund the shipping fee within 3 days. Anything else?", null);

        assertThat(facts).extracting(SessionFact::kind).contains("order", "complaint", "promise");
        assertThat(facts).filteredOn(f -> f.kind().equals("order")).extracting(SessionFact::text)
            .containsExactly("订单 order AB123456");
        assertThat(facts).filteredOn(f -> f.kind().equals("promise")).extracting(SessionFact::text)
            .containsExactly("We will refund the shipping fee within 3 days.");
    }

    @Test
    void personalNumbersNeverBecomeFactsAndPlainQuestionsHaveNone() {
        List<SessionFact> facts = extract("我的手机号是13812345678，退货运费谁出？", "退货运费由卖家承担。", "returns");

        assertThat(facts).isEmpty();   // the phone arrives masked; a question with no problem is no complaint
    }

    @Test
    void aComplaintIntentMakesTheMessageAComplaintAndKnownFactsAreNotRepeated() {
        List<SessionFact> first = extract("你们的服务太差了", "很抱歉。", "complaint");
        assertThat(first).extracting(SessionFact::kind).containsExactly("complaint");

        List<SessionFact> again = extractor.extract("你们的服务太差了", "很抱歉。", "complaint", first, 2L);
        assertThat(again).isEmpty();
    }

    @Test
    void aRemedyWithoutACommitmentIsNoPromise() {
        assertThat(extract("优惠券怎么用", "优惠券在结算页选择即可使用。", "promotion")).isEmpty();
    }

    @Test
    void theSameExchangeAgainGivesTheSameFactsStampedNowAndStillLeavesOutWhatASessionKnows() {
        String question = "订单 2024010199887766 的耳机坏了";
        String answer = "我们会为您补发。";
        List<SessionFact> first = extractor.extract(question, answer, null, List.of(), 1L);
        List<SessionFact> repeated = extractor.extract(question, answer, null, List.of(), 2L);
        assertThat(repeated).extracting(SessionFact::text).isEqualTo(first.stream().map(SessionFact::text).toList());
        assertThat(repeated).extracting(SessionFact::atEpochMs).containsOnly(2L);
        assertThat(extractor.extract(question, answer, null, first, 3L)).as("known to this session").isEmpty();
        assertThat(extractor.extract(question, answer, null, List.of(), 4L)).as("another session").hasSameSizeAs(first);
    }
}
