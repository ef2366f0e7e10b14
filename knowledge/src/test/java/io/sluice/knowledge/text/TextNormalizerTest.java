package io.sluice.knowledge.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextNormalizerTest {

    @Test
    void foldsCaseAndWidth() {
        assertThat(TextNormalizer.normalize("Cancel my ORDER")).isEqualTo("cancel my order");
        assertThat(TextNormalizer.normalize("ＲＥＦＵＮＤ １２３")).isEqualTo("refund 123");
    }

    @Test
    void turnsTraditionalChineseIntoSimplified() {
        assertThat(TextNormalizer.normalize("我的信用卡被盜刷了")).isEqualTo("我的信用卡被盗刷了");
        assertThat(TextNormalizer.normalize("退貨的運費誰來出？")).isEqualTo("退货的运费谁来出?");
    }

    @Test
    void collapsesWhiteSpaceButKeepsDigitsAndNegations() {
        assertThat(TextNormalizer.normalize("  设定闹钟\t五点半 \n")).isEqualTo("设定闹钟 五点半");
        assertThat(TextNormalizer.normalize("无法退款 13 天")).isEqualTo("无法退款 13 天");
        assertThat(TextNormalizer.normalize(null)).isEmpty();
    }

    @Test
    void matchKeyKeepsOnlyLettersAndDigits() {
        assertThat(TextNormalizer.matchKey("退貨 運費？")).isEqualTo(TextNormalizer.matchKey("退货运费"));
        assertThat(TextNormalizer.matchKey("Where is my order?")).isEqualTo("whereismyorder");
    }

    @Test
    void simplifiedTextSkipsTheConversionAndTraditionalCharactersAnywhereInAMessageAreStillConverted() {
        String simplified = "退货的运费谁来出?怎么申请退款,手机13900001001";
        assertThat(TextNormalizer.normalize(simplified)).isEqualTo(simplified);
        assertThat(TextNormalizer.normalize("退货的运费谁来出？我的卡掛失了")).isEqualTo("退货的运费谁来出?我的卡挂失了");
        assertThat(TextNormalizer.normalize("請問運費")).isEqualTo("请问运费");
    }
}
