package io.sluice.semantics.pairs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Operator pair files: CSV with quoting, JSONL, and refusals that name the line without echoing it. */
class PairFileTest {

    @Test
    void csvWithQuotedCommasQuotesAndLineBreaksIsRead() {
        List<LabelledPair> pairs = PairFile.parse("""
            question_a,question_b,same,intent
            "Refund, how long?","How long does a ""refund"" take?",yes,refund
            "two
            lines",other,different,
            """, PairFile.Format.CSV, 10);
        assertThat(pairs).hasSize(2);
        assertThat(pairs.get(0).a()).isEqualTo("Refund, how long?");
        assertThat(pairs.get(0).b()).isEqualTo("How long does a \"refund\" take?");
        assertThat(pairs.get(0).same()).isTrue();
        assertThat(pairs.get(0).intentA()).isEqualTo("refund");
        assertThat(pairs.get(1).a()).isEqualTo("two\nlines");
        assertThat(pairs.get(1).same()).isFalse();
        assertThat(pairs.get(1).intentB()).isNull();
    }

    @Test
    void jsonLinesAcceptBooleansAndPerSideLabels() {
        List<LabelledPair> pairs = PairFile.parse("""
            {"a": "退款多久到账", "b": "退款几天到", "same": true, "faq_a": "refund-time", "faq_b": "refund-time"}

            {"a": "运费谁出", "b": "退款谁出", "same": "no"}
            """, PairFile.Format.JSONL, 10);
        assertThat(pairs).extracting(LabelledPair::same).containsExactly(true, false);
        assertThat(pairs.get(0).faqB()).isEqualTo("refund-time");
    }

    @Test
    void aBadLineRefusesTheFileNamingTheLineNotItsText() {
        assertThatThrownBy(() -> PairFile.parse("a,b,same\nsecret question,other,maybe\n", PairFile.Format.CSV, 10))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pair 1").hasMessageContaining("'same'")
            .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> PairFile.parse("{\"a\": \"x\"\n", PairFile.Format.JSONL, 10))
            .hasMessageContaining("line 1");
        assertThatThrownBy(() -> PairFile.parse("a,b,same\nx,y,yes\nx,y,no\n", PairFile.Format.CSV, 1))
            .hasMessageContaining("at most 1");
        assertThatThrownBy(() -> PairFile.parse("a,b,same\nx,y\n", PairFile.Format.CSV, 10))
            .hasMessageContaining("pair 1").hasMessageContaining("'same'").hasMessageContaining("line 2");
        assertThatThrownBy(() -> PairFile.parse("a,b,same\nx,y,yes\n\"x, still open,y,no\n", PairFile.Format.CSV, 10))
            .hasMessageContaining("line 3").hasMessageContaining("quoted field is not closed");
    }
}
