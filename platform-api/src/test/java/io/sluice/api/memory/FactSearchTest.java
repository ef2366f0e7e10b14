package io.sluice.api.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sluice.api.session.SessionFact;

import org.junit.jupiter.api.Test;

class FactSearchTest {

    final FactSearch search = new FactSearch();
    final List<SessionFact> facts = List.of(
        new SessionFact("order", "订单 order 2023112233445", 1),
        new SessionFact("complaint", "订单号 2023112233445 的耳机收到就坏了，我要投诉", 2),
        new SessionFact("promise", "我们会为您补发一副新耳机，并发放一张20元优惠券作为补偿。", 3),
        new SessionFact("promise", "We will refund the shipping fee within 3 days.", 4));

    @Test
    void bm25FindsWhatWasPromisedByTheWordsOfALaterMessage() {
        List<FactSearch.Match> matches = search.search(facts, "上次说给我的补偿券怎么还没到？", 3);

        assertThat(matches).isNotEmpty();
        assertThat(matches.get(0).fact().text()).contains("20元优惠券");
    }

    @Test
    void anOrderNumberFindsItsFactsAndEnglishWorksToo() {
        assertThat(search.search(facts, "2023112233445 现在到哪了", 2)).extracting(m -> m.fact().kind())
            .contains("order");
        assertThat(search.search(facts, "when is my shipping refund coming?", 1)).singleElement()
            .satisfies(m -> assertThat(m.fact().text()).startsWith("We will refund"));
    }

    @Test
    void nothingMatchesNothingIsRecalled() {
        assertThat(search.search(facts, "营业时间", 3)).isEmpty();
        assertThat(search.search(List.of(), "补偿", 3)).isEmpty();
    }
}
