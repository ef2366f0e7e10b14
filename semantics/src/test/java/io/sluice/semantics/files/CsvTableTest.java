package io.sluice.semantics.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The one CSV reader: RFC 4180 fields, the line each row starts on, errors by line without the text. */
class CsvTableTest {

    @Test
    void rowsKeepTheLineTheyStartOnAcrossQuotedLineBreaksAndBlankLines() {
        CsvTable.Table t = CsvTable.read("\uFEFFText,Intent\r\n\"a, b\",x\r\n\r\n\"multi\r\nline \"\"quoted\"\"\",y\r\nlast,\r\n",
            true, 10);

        assertThat(t.header()).containsExactly("text", "intent");
        assertThat(t.rows()).extracting(CsvTable.Row::line).containsExactly(2, 4, 6);
        assertThat(t.rows().get(0).fields()).isEqualTo(Map.of("text", "a, b", "intent", "x"));
        assertThat(t.rows().get(1).get("text")).isEqualTo("multi\r\nline \"quoted\"");
        assertThat(t.rows().get(2).fields()).isEqualTo(Map.of("text", "last", "intent", ""));
        assertThat(CsvTable.read("Query,validFrom\nq,2026\n", false, 10).rows().get(0).fields()).containsKey("validFrom");
    }

    @Test
    void malformedFilesAreRefusedByLine() {
        assertThatThrownBy(() -> CsvTable.read("a,b\n1,2\n\"secret open,2\n", true, 10))
            .isInstanceOfSatisfying(CsvTable.CsvException.class, e -> assertThat(e.line()).isEqualTo(3))
            .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> CsvTable.read("a,b\n1,2,3\n", true, 10))
            .isInstanceOfSatisfying(CsvTable.CsvException.class, e -> assertThat(e.line()).isEqualTo(2));
        assertThatThrownBy(() -> CsvTable.read("a,A\n1,2\n", true, 10)).hasMessageContaining("twice");
        assertThatThrownBy(() -> CsvTable.read("a\n1\n2\n3\n", true, 2)).hasMessageContaining("more than 2");
        assertThat(CsvTable.read("", true, 10).header()).isEmpty();
    }
}
