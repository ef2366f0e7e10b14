package io.sluice.knowledge.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;

/** A PDF cannot cost more than the parse limits: decompressed size, extracted text, time. */
class ParseLimitsTest {

    @Test
    void aDecompressionBombIsRefusedBeforeItsTextIsExtracted() throws Exception {
        byte[] bomb = pdf("refund policy", 32L * 1024 * 1024);
        DocumentParser parser = new DocumentParser(new ParseLimits(8L * 1024 * 1024, 1_000_000, Duration.ofMinutes(1)));
        assertThatThrownBy(() -> parser.parse(bomb, DocumentFormat.PDF))
            .isInstanceOfSatisfying(IngestException.class, e -> {
                assertThat(e.problem()).isEqualTo(IngestException.Problem.LIMITS_EXCEEDED);
                assertThat(e.getMessage()).contains("decompresses");
            });
    }

    @Test
    void theSamePdfUnderTheLimitsIsParsed() throws Exception {
        byte[] small = pdf("refund policy", 1024 * 1024);
        ParsedDocument parsed = new DocumentParser(ParseLimits.DEFAULT).parse(small, DocumentFormat.PDF);
        assertThat(parsed.sections().get(0).text()).contains("refund policy");
    }

    @Test
    void textAndTimeLimitsStopTheParse() throws Exception {
        byte[] pdf = pdf("refund policy and more words", 0);
        assertThatThrownBy(() -> new DocumentParser(new ParseLimits(1 << 20, 5, Duration.ofMinutes(1)))
                .parse(pdf, DocumentFormat.PDF))
            .isInstanceOfSatisfying(IngestException.class, e -> assertThat(e.getMessage()).contains("characters of text"));
        assertThatThrownBy(() -> new DocumentParser(new ParseLimits(1 << 20, 1000, Duration.ofNanos(1)))
                .parse(pdf, DocumentFormat.PDF))
            .isInstanceOfSatisfying(IngestException.class, e -> assertThat(e.getMessage()).contains("took longer"));
    }

    /** One page of text plus a content stream of {@code blanks} spaces, deflated. */
    static byte[] pdf(String text, long blanks) throws Exception {
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage();
            doc.addPage(page);
            try (PDPageContentStream content = new PDPageContentStream(doc, page)) {
                content.beginText();
                content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                content.newLineAtOffset(72, 700);
                content.showText(text);
                content.endText();
            }
            if (blanks > 0) {
                PDStream padding = new PDStream(doc);
                try (OutputStream raw = padding.getCOSObject().createRawOutputStream();
                        DeflaterOutputStream deflate = new DeflaterOutputStream(raw, new Deflater(9), 1 << 16)) {
                    byte[] chunk = new byte[1 << 20];
                    Arrays.fill(chunk, (byte) ' ');
                    for (long written = 0; written < blanks; written += chunk.length) {
                        deflate.write(chunk);
                    }
                }
                padding.getCOSObject().setItem(COSName.FILTER, COSName.FLATE_DECODE);
                COSArray contents = new COSArray();
                contents.add(page.getCOSObject().getDictionaryObject(COSName.CONTENTS));
                contents.add(padding.getCOSObject());
                page.getCOSObject().setItem(COSName.CONTENTS, contents);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            doc.save(out);
            return out.toByteArray();
        }
    }
}
