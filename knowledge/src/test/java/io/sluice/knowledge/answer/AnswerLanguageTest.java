package io.sluice.knowledge.answer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The language answers and prompts follow, decided by script. */
class AnswerLanguageTest {

    @Test
    void scriptDecidesTheLanguageAndTraditionalChineseIsToldApart() {
        assertThat(AnswerLanguage.of("Where is my parcel?")).isEqualTo(AnswerLanguage.ENGLISH);
        assertThat(AnswerLanguage.of("退款多久到账")).isEqualTo(AnswerLanguage.CHINESE_SIMPLIFIED);
        assertThat(AnswerLanguage.of("信用卡遺失了怎麼辦？")).isEqualTo(AnswerLanguage.CHINESE_TRADITIONAL);
        assertThat(AnswerLanguage.of("我的 iPhone 退货")).isEqualTo(AnswerLanguage.CHINESE_SIMPLIFIED);
        assertThat(AnswerLanguage.of("12345 ?!")).isEqualTo(AnswerLanguage.OTHER);
        assertThat(AnswerLanguage.CHINESE_TRADITIONAL.sameLanguage(AnswerLanguage.CHINESE_SIMPLIFIED)).isTrue();
        assertThat(AnswerLanguage.ENGLISH.sameLanguage(AnswerLanguage.CHINESE_SIMPLIFIED)).isFalse();
    }

    @Test
    void theNoAnswerSpeaksTheQuestionsLanguageAndOffersAHumanOrALaterAnswer() {
        assertThat(NoAnswer.text(AnswerLanguage.ENGLISH)).contains("no answer").contains("human agent").contains("later");
        assertThat(NoAnswer.text(AnswerLanguage.CHINESE_SIMPLIFIED)).contains("转人工").contains("稍后答复");
        assertThat(NoAnswer.text(AnswerLanguage.CHINESE_TRADITIONAL)).contains("轉人工");
        assertThat(NoAnswer.is(NoAnswer.text(AnswerLanguage.OTHER))).isTrue();
        assertThat(NoAnswer.is("退款 1-3 个工作日到账")).isFalse();
    }
}
