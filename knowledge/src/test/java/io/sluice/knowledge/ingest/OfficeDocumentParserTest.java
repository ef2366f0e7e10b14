package io.sluice.knowledge.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.apache.poi.xslf.usermodel.SlideLayout;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xslf.usermodel.XSLFSlideLayout;
import org.apache.poi.xslf.usermodel.XSLFTextShape;
import org.apache.poi.xssf.usermodel.XSSFSheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.junit.jupiter.api.Test;

/** Word, Excel and PowerPoint documents become heading-aware sections, within the same limits as a PDF. */
class OfficeDocumentParserTest {

    private final DocumentParser parser = new DocumentParser(ParseLimits.DEFAULT);

    @Test
    void aWordDocumentKeepsItsHeadingPathsAndTables() throws Exception {
        ParsedDocument parsed = parser.parse(docx(), DocumentFormat.DOCX);

        assertThat(parsed.title()).isEqualTo("售后服务手册");
        assertThat(parsed.sections()).extracting(ParsedDocument.Section::heading)
            .containsExactly("售后服务手册", "售后服务手册 › 退货", "售后服务手册 › 换货");
        assertThat(parsed.sections().get(1).text()).contains("七天内可无理由退货");
        assertThat(parsed.sections().get(2).text()).contains("换货 | 15 天 | 质量问题");
    }

    @Test
    void aWorkbookIsReadSheetBySheetEachRowNamingItsColumns() throws Exception {
        ParsedDocument parsed = parser.parse(xlsx(3), DocumentFormat.XLSX);

        assertThat(parsed.sections()).extracting(ParsedDocument.Section::heading).containsExactly("运费", "时效");
        assertThat(parsed.sections().get(0).text())
            .contains("地区 | 首重 | 续重")
            .contains("地区: 区域1; 首重: 11; 续重: 2");
        assertThat(parsed.sections().get(1).text()).contains("发货时效: 下单后 48 小时内发货");
    }

    @Test
    void aPresentationHasOneSectionPerSlideUnderItsTitleWithItsNotes() throws Exception {
        ParsedDocument parsed = parser.parse(pptx(), DocumentFormat.PPTX);

        assertThat(parsed.sections()).extracting(ParsedDocument.Section::heading).containsExactly("会员权益", "积分规则");
        assertThat(parsed.sections().get(0).text()).contains("金卡会员每月两张免运费券").doesNotContain("会员权益");
        assertThat(parsed.sections().get(1).text()).contains("每消费 1 元得 1 积分", "讲者备注：积分不能提现");
        assertThat(parsed.title()).isEqualTo("会员权益");
    }

    @Test
    void aZipBombIsRefusedBeforePoiOpensIt() throws Exception {
        // 48 MiB of zeros deflate to ~50 KB: an OOXML-shaped file far smaller than the upload limit
        byte[] bomb = zip("word/document.xml", new byte[48 * 1024 * 1024]);
        assertThat(bomb.length).isLessThan(1024 * 1024);
        DocumentParser limited = new DocumentParser(new ParseLimits(8L * 1024 * 1024, 1_000_000, Duration.ofMinutes(1)));
        for (DocumentFormat format : new DocumentFormat[] {DocumentFormat.DOCX, DocumentFormat.XLSX, DocumentFormat.PPTX}) {
            assertThatThrownBy(() -> limited.parse(bomb, format))
                .isInstanceOfSatisfying(IngestException.class, e -> {
                    assertThat(e.problem()).isEqualTo(IngestException.Problem.LIMITS_EXCEEDED);
                    assertThat(e.getMessage()).contains("decompresses to more than 8 MiB");
                });
        }
    }

    @Test
    void textAndTimeLimitsStopTheParse() throws Exception {
        byte[] workbook = xlsx(2000);
        assertThatThrownBy(() -> new DocumentParser(new ParseLimits(1 << 26, 5_000, Duration.ofMinutes(1)))
                .parse(workbook, DocumentFormat.XLSX))
            .isInstanceOfSatisfying(IngestException.class, e -> {
                assertThat(e.problem()).isEqualTo(IngestException.Problem.LIMITS_EXCEEDED);
                assertThat(e.getMessage()).contains("characters of text");
            });
        assertThatThrownBy(() -> new DocumentParser(new ParseLimits(1 << 26, 1_000_000, Duration.ofNanos(1)))
                .parse(docx(), DocumentFormat.DOCX))
            .isInstanceOfSatisfying(IngestException.class, e -> assertThat(e.getMessage()).contains("took longer"));
    }

    @Test
    void somethingElseUnderAnOfficeNameIsRefusedAsUnreadable() throws Exception {
        byte[] notZip = "just text, named .docx".getBytes(StandardCharsets.UTF_8);
        byte[] wrongZip = zip("hello.txt", "a zip, but no document".getBytes(StandardCharsets.UTF_8));
        for (byte[] content : new byte[][] {notZip, wrongZip}) {
            assertThatThrownBy(() -> parser.parse(content, DocumentFormat.DOCX))
                .isInstanceOfSatisfying(IngestException.class, e -> {
                    assertThat(e.problem()).isEqualTo(IngestException.Problem.INVALID);
                    assertThat(e.getMessage()).isEqualTo("not a readable Word document");
                });
        }
        assertThatThrownBy(() -> parser.parse(wrongZip, DocumentFormat.XLSX))
            .isInstanceOfSatisfying(IngestException.class, e -> assertThat(e.getMessage()).isEqualTo("not a readable Excel workbook"));
    }

    @Test
    void officeFormatsAreDetectedByMediaTypeOrByNameBehindAGenericType() {
        assertThat(DocumentFormat.detect("application/vnd.openxmlformats-officedocument.wordprocessingml.document", null))
            .contains(DocumentFormat.DOCX);
        assertThat(DocumentFormat.detect("application/octet-stream", "价目表.XLSX")).contains(DocumentFormat.XLSX);
        assertThat(DocumentFormat.detect("application/zip", "deck.pptx")).contains(DocumentFormat.PPTX);
        assertThat(DocumentFormat.detect("application/zip", "archive.zip")).isEmpty();
        assertThat(DocumentFormat.detect("application/msword", "old.doc")).isEmpty();
    }

    static byte[] docx() throws Exception {
        try (XWPFDocument doc = new XWPFDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            heading(doc, "售后服务手册", "Heading1");
            doc.createParagraph().createRun().setText("本手册说明退货与换货。");
            heading(doc, "退货", "Heading2");
            doc.createParagraph().createRun().setText("签收后七天内可无理由退货，商品需完好。");
            heading(doc, "换货", "Heading2");
            XWPFTable table = doc.createTable(2, 3);
            String[][] cells = {{"类型", "期限", "条件"}, {"换货", "15 天", "质量问题"}};
            for (int r = 0; r < 2; r++) {
                for (int c = 0; c < 3; c++) {
                    table.getRow(r).getCell(c).setText(cells[r][c]);
                }
            }
            doc.write(out);
            return out.toByteArray();
        }
    }

    private static void heading(XWPFDocument doc, String text, String style) {
        XWPFParagraph p = doc.createParagraph();
        p.setStyle(style);
        p.createRun().setText(text);
    }

    static byte[] xlsx(int rows) throws Exception {
        try (XSSFWorkbook book = new XSSFWorkbook(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            XSSFSheet fees = book.createSheet("运费");
            String[] header = {"地区", "首重", "续重"};
            var head = fees.createRow(0);
            for (int c = 0; c < 3; c++) {
                head.createCell(c).setCellValue(header[c]);
            }
            for (int r = 1; r <= rows; r++) {
                var row = fees.createRow(r);
                row.createCell(0).setCellValue("区域" + r);
                row.createCell(1).setCellValue(10 + r);
                row.createCell(2).setCellValue(2);
            }
            XSSFSheet times = book.createSheet("时效");
            times.createRow(0).createCell(0).setCellValue("发货时效");
            times.createRow(1).createCell(0).setCellValue("下单后 48 小时内发货");
            book.write(out);
            return out.toByteArray();
        }
    }

    static byte[] pptx() throws Exception {
        try (XMLSlideShow show = new XMLSlideShow(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            XSLFSlideLayout layout = show.getSlideMasters().get(0).getLayout(SlideLayout.TITLE_AND_CONTENT);
            slide(show, layout, "会员权益", "金卡会员每月两张免运费券");
            XSLFSlide second = slide(show, layout, "积分规则", "每消费 1 元得 1 积分");
            var notes = show.getNotesSlide(second);
            for (var placeholder : notes.getPlaceholders()) {
                if (placeholder.getTextType() != null && placeholder.getTextType().name().equals("BODY")) {
                    placeholder.setText("讲者备注：积分不能提现");
                }
            }
            show.write(out);
            return out.toByteArray();
        }
    }

    private static XSLFSlide slide(XMLSlideShow show, XSLFSlideLayout layout, String title, String body) {
        XSLFSlide slide = show.createSlide(layout);
        XSLFTextShape[] placeholders = slide.getPlaceholders();
        placeholders[0].setText(title);
        placeholders[1].setText(body);
        return slide;
    }

    static byte[] zip(String name, byte[] content) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry("[Content_Types].xml"));
            zip.write("<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>"
                .getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry(name));
            zip.write(content);
            zip.closeEntry();
        }
        return out.toByteArray();
    }
}
