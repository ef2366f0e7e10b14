package io.sluice.api.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.sluice.knowledge.faq.FaqEntry;

import org.junit.jupiter.api.Test;

/** Operator files: CSV with quoting and JSONL with arrays read the same way; errors name the line only. */
class LabelledFilesTest {

    @Test
    void csvAndJsonlGiveTheSameEntries() {
        String csv = "key,question,phrasings,answer,category\n"
            + "ret-01,How do I return an item?,\"Send it back|Return, please\",\"Use the \"\"Returns\"\" page.\",returns\r\n";
        String jsonl = "{\"key\":\"ret-01\",\"question\":\"How do I return an item?\",\"phrasings\":[\"Send it back\","
            + "\"Return, please\"],\"answer\":\"Use the \\\"Returns\\\" page.\",\"category\":\"returns\"}\n\n";
        List<FaqEntry> a = FaqOperationsController.entries(LabelledFiles.read(csv.getBytes(StandardCharsets.UTF_8), "text/csv"));
        List<FaqEntry> b = FaqOperationsController.entries(LabelledFiles.read(jsonl.getBytes(StandardCharsets.UTF_8),
            "application/x-ndjson"));
        assertThat(a).hasSize(1);
        assertThat(a).usingRecursiveComparison().isEqualTo(b);
        assertThat(a.get(0).phrasings()).containsExactly("Send it back", "Return, please");
        assertThat(a.get(0).answer()).isEqualTo("Use the \"Returns\" page.");
    }

    @Test
    void badLinesAreNamedByNumberNeverEchoed() {
        assertThatThrownBy(() -> LabelledFiles.read("{\"query\":\"ok\"}\nsecret text here\n".getBytes(StandardCharsets.UTF_8),
            "application/jsonl")).hasMessage("line 2 is not a JSON object");
        assertThatThrownBy(() -> LabelledFiles.read(new byte[0], "text/csv")).hasMessage("the file is empty");
        assertThatThrownBy(() -> LabelledFiles.read("query,key\n\"open".getBytes(StandardCharsets.UTF_8), "text/csv"))
            .hasMessageContaining("quoted field");
        assertThat(LabelledFiles.read("query,key\nWhere is my parcel?,ord-01\nWhat is the capital of France?,\n"
            .getBytes(StandardCharsets.UTF_8), "text/csv")).containsExactly(
                Map.of("query", "Where is my parcel?", "key", "ord-01"),
                Map.of("query", "What is the capital of France?", "key", ""));
    }
}
