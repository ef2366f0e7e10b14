package io.sluice.knowledge.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class ChunkerTest {

    private final DocumentParser parser = new DocumentParser();

    @Test
    void chunksNeverCrossHeadingsAndCarryTheHeadingPath() {
        String md = "# 退货政策\n\n总则。\n\n## 七天无理由\n\n签收后七天内可退。商品需完好。\n\n## 质量问题\n\n十五天内可换。\n";
        List<Chunker.Chunk> chunks = new Chunker(100, 20).chunk(parser.parse(md.getBytes(StandardCharsets.UTF_8),
            DocumentFormat.MARKDOWN));
        assertThat(chunks).extracting(Chunker.Chunk::heading)
            .containsExactly("退货政策", "退货政策 › 七天无理由", "退货政策 › 质量问题");
        assertThat(chunks.get(1).content()).isEqualTo("签收后七天内可退。商品需完好。");
        assertThat(chunks.get(1).indexText()).startsWith("退货政策 › 七天无理由\n");
    }

    @Test
    void splitsLongSectionsAtSentenceEndsWithOverlap() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            text.append("这是第").append(i).append("句话，用来测试分块。");
        }
        text.append("Refunds go back to the original payment method. They take 1-3 days.");
        List<Chunker.Chunk> chunks = new Chunker(120, 30).chunk(new ParsedDocument(null,
            List.of(new ParsedDocument.Section("", text.toString()))));
        assertThat(chunks).hasSizeGreaterThan(3);
        for (Chunker.Chunk c : chunks) {
            assertThat(c.content().length()).isLessThanOrEqualTo(120);
            assertThat(c.content()).matches("(?s).*[。.]$");
        }
        // overlap: the next chunk starts with trailing sentences of the previous one
        String firstOfSecond = chunks.get(1).content().substring(0, chunks.get(1).content().indexOf('。') + 1);
        assertThat(chunks.get(0).content()).contains(firstOfSecond);
        assertThat(chunks.get(0).content()).doesNotStartWith(firstOfSecond);
        assertThat(chunks.get(chunks.size() - 1).content()).endsWith("Refunds go back to the original payment method. "
            + "They take 1-3 days.");
    }

    @Test
    void parsesHtmlHeadingsAndDropsScripts() {
        String html = "<html><head><title>T</title><script>var x=1;</script></head><body><h1>配送</h1>"
            + "<p>满 99 元包邮。</p><h2>偏远地区</h2><ul><li>加收 15 元。</li></ul></body></html>";
        ParsedDocument doc = parser.parse(html.getBytes(StandardCharsets.UTF_8), DocumentFormat.HTML);
        assertThat(doc.title()).isEqualTo("T");
        assertThat(doc.sections()).extracting(ParsedDocument.Section::heading).containsExactly("配送", "配送 › 偏远地区");
        assertThat(doc.sections().get(1).text()).isEqualTo("加收 15 元。");
    }

    @Test
    void extractsTextFromPdf() throws Exception {
        byte[] pdf;
        try (org.apache.pdfbox.pdmodel.PDDocument doc = new org.apache.pdfbox.pdmodel.PDDocument();
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream()) {
            org.apache.pdfbox.pdmodel.PDPage page = new org.apache.pdfbox.pdmodel.PDPage();
            doc.addPage(page);
            try (org.apache.pdfbox.pdmodel.PDPageContentStream cs =
                    new org.apache.pdfbox.pdmodel.PDPageContentStream(doc, page)) {
                cs.beginText();
                cs.setFont(new org.apache.pdfbox.pdmodel.font.PDType1Font(
                    org.apache.pdfbox.pdmodel.font.Standard14Fonts.FontName.HELVETICA), 12);
                cs.newLineAtOffset(72, 700);
                cs.showText("Returns are accepted within 7 days of delivery.");
                cs.endText();
            }
            doc.getDocumentInformation().setTitle("Return policy");
            doc.save(out);
            pdf = out.toByteArray();
        }
        ParsedDocument parsed = parser.parse(pdf, DocumentFormat.PDF);
        assertThat(parsed.title()).isEqualTo("Return policy");
        assertThat(parsed.sections().get(0).text()).contains("Returns are accepted within 7 days of delivery.");
    }

    @Test
    void detectsFormatsByTypeOrName() {
        assertThat(DocumentFormat.detect("text/markdown; charset=utf-8", null)).contains(DocumentFormat.MARKDOWN);
        assertThat(DocumentFormat.detect("application/octet-stream", "a.HTML")).contains(DocumentFormat.HTML);
        assertThat(DocumentFormat.detect(null, "policy.pdf")).contains(DocumentFormat.PDF);
        assertThat(DocumentFormat.detect("image/png", "x.md")).isEmpty();
        assertThat(DocumentFormat.detect(null, "x.docx")).contains(DocumentFormat.DOCX);
        assertThat(DocumentFormat.detect(null, "x.doc")).as("old binary Word is not read").isEmpty();
    }
}
