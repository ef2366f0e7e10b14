package io.sluice.semantics.pairs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The signals the pair features compare, read from single questions. */
class QuestionAnalyzerTest {

    final QuestionAnalyzer analyzer = new QuestionAnalyzer();

    @Test
    void chineseNumeralsCountWithoutAUnitButArticlesAndIdiomsDoNot() {
        assertThat(analyzer.analyze("设定闹钟五点半").numbers()).containsExactly("5:30");
        assertThat(analyzer.analyze("十三除以七").numbers()).containsExactly("13", "7");
        assertThat(analyzer.analyze("退款3天没到").numbers()).containsExactly("3d");
        assertThat(analyzer.analyze("我想问一下，一个订单怎么退").numbers()).isEmpty();
        assertThat(analyzer.analyze("千万别取消").numbers()).isEmpty();
    }

    @Test
    void directionsAreReadFromPlaceToPlace() {
        assertThat(analyzer.analyze("上海到郑州的火车").directions()).containsExactly("上海>郑州");
        assertThat(analyzer.analyze("从郑州去上海").directions()).containsExactly("郑州>上海");
        assertThat(analyzer.analyze("Flights from Boston to Chicago").directions()).contains("boston>chicago");
        assertThat(analyzer.analyze("退款多久到账").directions()).isEmpty();
        assertThat(analyzer.analyze("怎么寄到上海").directions()).isEmpty();
    }

    @Test
    void abilityNegationsAreNegations() {
        assertThat(analyzer.analyze("无法登录").negated()).isTrue();
        assertThat(analyzer.analyze("没法登录").negated()).isTrue();
        assertThat(analyzer.analyze("不可以提前还款吗").negated()).isTrue();
        assertThat(analyzer.analyze("可不可以提前还款").negated()).isFalse();
        assertThat(analyzer.analyze("無法轉帳").negated()).isTrue();
    }

    @Test
    void traditionalAndSimplifiedReadAlike() {
        assertThat(analyzer.analyze("無法轉帳怎麼辦").concepts()).isEqualTo(analyzer.analyze("无法转账怎么办").concepts());
        assertThat(analyzer.analyze("退貨運費誰出").concepts()).isEqualTo(analyzer.analyze("退货运费谁出").concepts());
    }
}
