package io.sluice.knowledge.faq;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The match of a question asked again (its scores are kept) still applies validity and category at every call. */
class FaqSnapshotMatchTest {

    static float[] unit(float... v) {
        return io.sluice.knowledge.embedding.Vectors.normalize(v);
    }

    @Test
    void aRepeatedQuestionKeepsItsScoresButValidityAndCategoryAreAppliedEachTime() {
        Instant until = Instant.parse("2026-06-01T00:00:00Z");
        FaqEntry seasonal = new FaqEntry(1, null, "双十一优惠券怎么领", List.of("双十一领券"), "活动页领取。", "promo",
            List.of(), null, until, null);
        FaqEntry always = new FaqEntry(2, null, "优惠券怎么用", List.of(), "结算时选择。", "promo", List.of(), null, null, null);
        FaqSnapshot snapshot = new FaqSnapshot(1, Instant.now(), "test", 3, List.of(seasonal, always),
            List.of(unit(1, 0, 0), unit(1, 0.1f, 0), unit(0.6f, 0.8f, 0)), "x");
        float[] query = unit(1, 0.05f, 0);

        List<FaqMatch> before = snapshot.match("双十一优惠券怎么领", query, 5, null, until.minusSeconds(60));
        List<FaqMatch> after = snapshot.match("双十一优惠券怎么领", query, 5, null, until.plusSeconds(60));
        List<FaqMatch> otherCategory = snapshot.match("双十一优惠券怎么领", query, 5, "account", until.minusSeconds(60));
        List<FaqMatch> keywordsOnly = snapshot.match("双十一优惠券怎么领", null, 5, null, until.minusSeconds(60));

        assertThat(before).extracting(m -> m.entry().id()).containsExactly(1L, 2L);
        assertThat(after).extracting(m -> m.entry().id()).containsExactly(2L);
        assertThat(after.get(0).score()).isEqualTo(before.get(1).score());
        assertThat(otherCategory).isEmpty();
        // without a vector the keyword score alone ranks: not the blended scores kept from the first call
        assertThat(keywordsOnly.get(0).score()).isNotEqualTo(before.get(0).score());
    }
}
