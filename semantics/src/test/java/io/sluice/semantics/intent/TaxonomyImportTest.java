package io.sluice.semantics.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.Map;

import io.sluice.semantics.intent.TaxonomyImport.Format;

import org.junit.jupiter.api.Test;

/** Import files: what is accepted, and every refusal names its line without echoing it. */
class TaxonomyImportTest {

    static TaxonomyChange csv(String text, Map<String, String> existing) throws IOException {
        return TaxonomyImport.read(new StringReader(text), Format.CSV, existing, "tester");
    }

    static TaxonomyChange jsonl(String text) throws IOException {
        return TaxonomyImport.read(new StringReader(text), Format.JSONL, Map.of(), "tester");
    }

    @Test
    void aLabelledTrainingFileWithPrioritiesCreatesItsIntents() throws IOException {
        TaxonomyChange change = csv("""
            text,intent,priority
            my card was stolen,card_lost,S
            "fees, again?",wrong_fee,A
            余额多少,Balance,b
            """, Map.of());

        assertThat(change.intents()).extracting(IntentDefinition::key).containsExactly("card_lost", "wrong_fee", "balance");
        assertThat(change.intents()).extracting(IntentDefinition::priority).containsExactly("S", "A", "B");
        assertThat(change.intents().get(1).examples()).containsExactly("fees, again?");
    }

    @Test
    void textIntentRowsNeedTheIntentsToExistOrBeDefinedInTheFile() throws IOException {
        TaxonomyChange change = csv("text,intent\n我的卡丢了,card_lost\n", Map.of("card_lost", "S"));
        assertThat(change.examples()).containsExactly(new LabelledText("我的卡丢了", "card_lost"));

        assertThatThrownBy(() -> csv("text,intent\nok,card_lost\nsecret text,nope\n", Map.of("card_lost", "S")))
            .isInstanceOf(TaxonomyImportException.class).hasMessageContaining("line 3").hasMessageContaining("nope")
            .hasMessageNotContaining("secret text")
            .satisfies(e -> assertThat(((TaxonomyImportException) e).line()).isEqualTo(3));
    }

    @Test
    void badLinesAreRefusedWithTheirNumber() {
        assertThatThrownBy(() -> csv("text,intent,priority\na,x,S\nb,x,A\n", Map.of()))
            .isInstanceOf(TaxonomyImportException.class).hasMessageContaining("line 3").hasMessageContaining("class S");
        assertThatThrownBy(() -> csv("text,intent,priority\na,x,Q\n", Map.of()))
            .hasMessageContaining("line 2").hasMessageContaining("S, A or B");
        assertThatThrownBy(() -> csv("text,intent,priority\n\"open,x,S\n", Map.of()))
            .hasMessageContaining("line 2").hasMessageContaining("not closed");
        assertThatThrownBy(() -> csv("text,category\n", Map.of())).hasMessageContaining("line 1");
        assertThatThrownBy(() -> csv("text,intent,priority\na,Bad Key!,S\n", Map.of())).hasMessageContaining("line 2");
        assertThatThrownBy(() -> csv("", Map.of())).hasMessageContaining("empty");
        assertThatThrownBy(() -> csv("text,intent,priority\n", Map.of())).hasMessageContaining("no intents");
    }

    @Test
    void jsonlHoldsWholeIntentsOrSingleExamples() throws IOException {
        TaxonomyChange change = jsonl("""
            {"intent":"card_lost","priority":"S","description":"lost or stolen","examples":["我的卡丢了","lost my card"]}
            {"text":"卡不见了","intent":"card_lost"}
            """);
        assertThat(change.intents()).singleElement().satisfies(i -> {
            assertThat(i.description()).isEqualTo("lost or stolen");
            assertThat(i.examples()).containsExactly("我的卡丢了", "lost my card");
        });
        assertThat(change.examples()).containsExactly(new LabelledText("卡不见了", "card_lost"));

        assertThatThrownBy(() -> jsonl("{\"intent\":\"a\",\"priority\":\"S\"}\nnot json\n")).hasMessageContaining("line 2");
        assertThatThrownBy(() -> jsonl("{\"intent\":\"a\",\"priority\":\"S\",\"examples\":[1]}\n"))
            .hasMessageContaining("line 1").hasMessageContaining("array of strings");
    }

    @Test
    void theFormatFollowsTheContentTypeOrFileName() {
        assertThat(Format.of("application/x-ndjson", null)).isEqualTo(Format.JSONL);
        assertThat(Format.of(null, "banking.jsonl")).isEqualTo(Format.JSONL);
        assertThat(Format.of("text/csv", "banking.csv")).isEqualTo(Format.CSV);
    }
}
