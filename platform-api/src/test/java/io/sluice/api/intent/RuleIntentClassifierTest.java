package io.sluice.api.intent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RuleIntentClassifierTest {

    final RuleIntentClassifier rules = new RuleIntentClassifier();

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "我要投诉你们的客服，态度太差了               | COMPLAINT     | S",
        "This is unacceptable, I want to file a complaint | COMPLAINT | S",
        "我要投诉，订单一直没收到                     | COMPLAINT     | S",
        "紧急！我的账户被盗刷了                       | URGENT        | S",
        "urgent: my card was stolen                  | URGENT        | S",
        "付款失败了，但是钱被扣了两次                  | PAYMENT       | A",
        "I was charged twice for one order            | PAYMENT       | A",
        "退款多久到账                                 | REFUND        | A",
        "收到的商品破损了                             | ORDER_PROBLEM | A",
        "I received the wrong item                    | ORDER_PROBLEM | A",
        "支持哪些支付方式                             | PAYMENT_INFO  | B",
        "怎么查物流                                   | LOGISTICS     | B",
        "how do I track my parcel                    | LOGISTICS     | B",
        "退货的运费谁来出                             | RETURNS       | B",
        "忘记密码怎么办                               | ACCOUNT       | B",
        "优惠券为什么不能用                           | PROMOTION     | B",
        "你好                                        | GENERAL       | B"})
    void classifiesChineseAndEnglishIntoPriorityClasses(String message, Intent intent, Priority priority) {
        IntentResult result = rules.classify(message);

        assertThat(result.intent()).isEqualTo(intent);
        assertThat(result.priority()).isEqualTo(priority);
        assertThat(result.source()).isEqualTo("rules");
    }

    @Test
    void englishKeywordsNeedWholeWords() {
        assertThat(rules.classify("how do I repay my friend").intent()).isNotEqualTo(Intent.PAYMENT_INFO);
    }

    @Test
    void evidenceNamesWhatMatched() {
        assertThat(rules.classify("我要投诉").evidence()).contains("投诉");
        assertThat(rules.classify("hello there").evidence()).isEmpty();
    }
}
