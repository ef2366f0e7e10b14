package io.sluice.semantics.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.Map;

import io.sluice.semantics.intent.TaxonomyImport.Format;

import org.junit.jupiter.api.Test;

/**
 * Import files as an operator exports them from a real labelled set: large, with a byte order mark,
 * quoted fields holding commas, quotes and line breaks, extra columns and fields, the class given per
 * intent or per row; refusals name the line.
 */
class TaxonomyImportRobustnessTest {

    static TaxonomyChange csv(String text, Map<String, String> existing) throws IOException {
        return TaxonomyImport.read(new StringReader(text), Format.CSV, existing, "tester");
    }

    static TaxonomyChange jsonl(String text) throws IOException {
        return TaxonomyImport.read(new StringReader(text), Format.JSONL, Map.of(), "tester");
    }

    static int examples(TaxonomyChange change) {
        return change.intents().stream().mapToInt(i -> i.examples().size()).sum() + change.examples().size();
    }

    @Test
    void aTwelveThousandLineCsvWithBomCrlfQuotesAndAnExtraColumnImportsWhole() throws IOException {
        StringBuilder file = new StringBuilder("\uFEFFid,Text,Intent,Priority,split\r\n");
        for (int i = 0; i < 12_000; i++) {
            String text = switch (i % 4) {
                case 0 -> "my card number " + i + " was declined, twice";
                case 1 -> "\"she said \"\"stop\"\" at step " + i + "\"";
                case 2 -> "\"line one " + i + "\nline two\"";
                default -> "plain message " + i;
            };
            String needsQuotes = i % 4 == 0 ? "\"" + text + "\"" : text;
            file.append(i).append(',').append(needsQuotes).append(",intent_").append(i % 77).append(',')
                .append(i % 77 < 10 ? "S" : i % 77 < 30 ? "A" : "B").append(",train\r\n");
        }

        TaxonomyChange change = csv(file.toString(), Map.of());

        assertThat(change.intents()).hasSize(77);
        assertThat(examples(change)).isEqualTo(12_000);
        IntentDefinition first = change.intents().stream().filter(i -> i.key().equals("intent_0")).findFirst().orElseThrow();
        assertThat(first.priority()).isEqualTo("S");
        assertThat(first.examples()).contains("my card number 0 was declined, twice");
        IntentDefinition second = change.intents().stream().filter(i -> i.key().equals("intent_1")).findFirst().orElseThrow();
        assertThat(second.examples()).contains("she said \"stop\" at step 1");
        IntentDefinition third = change.intents().stream().filter(i -> i.key().equals("intent_2")).findFirst().orElseThrow();
        assertThat(third.examples()).contains("line one 2\nline two");
    }

    @Test
    void theClassMayBeGivenOncePerIntentAndTheExamplesFollowWithout() throws IOException {
        TaxonomyChange change = csv("""
            intent,priority,description,text
            card_lost,S,"the card is lost, or stolen",
            exchange_rate,b,rates,
            card_lost,,,I lost my card
            exchange_rate,,,"what is the rate for USD, today?"
            """, Map.of());

        assertThat(change.intents()).extracting(IntentDefinition::key).containsExactly("card_lost", "exchange_rate");
        assertThat(change.intents().get(0).description()).isEqualTo("the card is lost, or stolen");
        assertThat(change.intents().get(1).priority()).isEqualTo("B");
        assertThat(change.examples()).extracting(LabelledText::text)
            .containsExactly("I lost my card", "what is the rate for USD, today?");
    }

    @Test
    void jsonlWithExtraFieldsAndAliasesIsRead() throws IOException {
        TaxonomyChange change = jsonl("""
            \uFEFF{"id": 1, "label": "card_lost", "priority": "S", "utterance": "lost my card", "source": {"set": "x"}}
            {"id": 2, "intent": "card_lost", "text": "card stolen", "score": 0.9}

            {"intent": "rates", "priority": "B", "description": "exchange rates", "examples": ["USD rate?"], "tags": ["fx"]}
            """);

        assertThat(change.intents()).extracting(IntentDefinition::key).containsExactly("card_lost", "rates");
        assertThat(change.intents().get(0).examples()).containsExactly("lost my card");
        assertThat(change.examples()).extracting(LabelledText::text).containsExactly("card stolen");
        assertThat(change.intents().get(1).examples()).containsExactly("USD rate?");
    }

    @Test
    void refusalsNameTheLineWhereTheBadRecordStarts() {
        // a quoted field spanning lines 3-4 is fine; the unclosed quote opens on line 5
        String unclosed = "text,intent,priority\nok,a,S\n\"two\nlines\",a,S\n\"never closed,a,S\nmore,a,S\n";
        assertThatThrownBy(() -> csv(unclosed, Map.of())).isInstanceOf(TaxonomyImportException.class)
            .hasMessageContaining("line 5").hasMessageContaining("not closed")
            .extracting(e -> ((TaxonomyImportException) e).line()).isEqualTo(5);
        assertThatThrownBy(() -> csv("text,intent,priority\nok,a,S\n\"a\nb\",a,X\n", Map.of()))
            .hasMessageContaining("line 3").hasMessageContaining("S, A or B");
        assertThatThrownBy(() -> csv("text,intent,priority\nok,a,S\ntoo,many,S,fields\n", Map.of()))
            .hasMessageContaining("line 3").hasMessageContaining("4 fields");
        assertThatThrownBy(() -> csv("text,intent,priority\n\"ok\"x,a,S\n", Map.of()))
            .hasMessageContaining("line 2").hasMessageContaining("closing quote");
        assertThatThrownBy(() -> csv("text,intent,label\nok,a,b\n", Map.of())).hasMessageContaining("line 1")
            .hasMessageContaining("twice");
        assertThatThrownBy(() -> jsonl("{\"intent\":\"a\",\"priority\":\"S\",\"text\":\"x\"}\n{\"intent\": 5}\n"))
            .hasMessageContaining("line 2");
    }
}
