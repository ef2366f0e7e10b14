package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

import tools.jackson.databind.JsonNode;

/**
 * M5: a 2 MB PDF that decompresses to 2 GiB took 37 s of CPU on a request thread (and was accepted).
 * Now a PDF's content is measured against a decompressed-size cap before any text is extracted, parsing
 * has a time cap, and uploads run off the request thread (202 + job when long); over a limit the answer
 * is the problem type document-limits-exceeded and nothing is stored. The bomb is built here (a page with
 * real text plus a content stream of 192 MiB of blanks, deflated to a fraction of a MB).
 */
class M5DecompressionBombTest extends SecuritySuite {

    @Test
    void aDecompressionBombIsRefusedWithItsProblemTypeAndNothingIsStored() throws Exception {
        byte[] bomb = bomb(192L * 1024 * 1024);
        assertThat(bomb.length).isLessThan(2 * 1024 * 1024);
        Client editor = client("kb-editor", "knowledge:write", "knowledge:read");
        String id = "bomb-" + RUN;

        String boundary = "----sluice" + RUN;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"externalId\"\r\n\r\n" + id + "\r\n"
            + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bomb.pdf\"\r\n"
            + "Content-Type: application/pdf\r\n\r\n").getBytes());
        body.write(bomb);
        body.write(("\r\n--" + boundary + "--\r\n").getBytes());
        HttpResponse<String> upload = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/v1/knowledge/documents"))
            .header("Authorization", "Bearer " + key(editor))
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build(), HttpResponse.BodyHandlers.ofString());

        if (upload.statusCode() == 202) { // parsed off the request thread: follow the job
            String statusUrl = json(upload).get("statusUrl").asString();
            await().atMost(Duration.ofSeconds(60)).until(() -> !"RUNNING".equals(state(editor, statusUrl).get("state").asString()));
            JsonNode job = state(editor, statusUrl);
            assertThat(job.get("state").asString()).isEqualTo("FAILED");
            assertThat(job.get("problem").asString()).isEqualTo("LIMITS_EXCEEDED");
        } else {
            assertProblem(upload, 422, "document-limits-exceeded");
            assertThat(json(upload).get("detail").asString()).contains("decompresses");
        }
        assertThat(jdbc.sql("SELECT count(*) FROM knowledge_document WHERE external_id = ?").param(id).query(Long.class).single())
            .isZero();
    }

    private JsonNode state(Client client, String url) {
        return json(client.http().get(url));
    }

    private String key(Client client) {
        return (String) org.springframework.test.util.ReflectionTestUtils.getField(client.http(), "apiKey");
    }

    /** One page: a line of text, then a second content stream of {@code blanks} spaces, deflated. */
    static byte[] bomb(long blanks) throws Exception {
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage();
            doc.addPage(page);
            try (PDPageContentStream text = new PDPageContentStream(doc, page)) {
                text.beginText();
                text.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                text.newLineAtOffset(72, 700);
                text.showText("refund policy");
                text.endText();
            }
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
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            doc.save(out);
            return out.toByteArray();
        }
    }
}
