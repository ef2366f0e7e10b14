package io.sluice.knowledge.ingest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDStream;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;

/**
 * Turns raw bytes of a supported format into heading-aware text sections, within {@link ParseLimits}:
 * a PDF's content streams are measured (decoded, counting, stopping at the limit) before any text is
 * extracted, extraction checks the deadline at every content operator and stops at the text limit.
 * Control characters that text cannot hold (NUL, other C0 controls, DEL, C1) are stripped from what a
 * PDF yields (text formats with NUL are refused as binary).
 */
public class DocumentParser {

    private static final Pattern MD_HEADING = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern FORBIDDEN = Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F-\\x9F]");
    private static final int MAX_HEADING_DEPTH = 6;

    private final ParseLimits limits;
    private final OfficeDocumentParser office;

    public DocumentParser() {
        this(ParseLimits.DEFAULT);
    }

    public DocumentParser(ParseLimits limits) {
        this.limits = limits;
        this.office = new OfficeDocumentParser(limits);
    }

    public ParsedDocument parse(byte[] content, DocumentFormat format) {
        return switch (format) {
            case MARKDOWN -> markdown(text(content));
            case TEXT -> plain(text(content));
            case HTML -> html(text(content));
            case PDF -> pdf(content);
            case DOCX -> office.docx(content);
            case XLSX -> office.xlsx(content);
            case PPTX -> office.pptx(content);
        };
    }

    /** Strict UTF-8 decoding; NUL bytes or invalid sequences mean the file is binary, not text. */
    static String text(byte[] content) {
        int controls = 0;
        for (byte b : content) {
            if (b == 0) {
                throw new IngestException(IngestException.Problem.BINARY,
                    "content looks binary (contains NUL bytes), not text");
            }
            if (b > 0 && b < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != '\f') {
                controls++;
            }
        }
        if (controls > Math.max(8, content.length / 100)) {
            throw new IngestException(IngestException.Problem.BINARY,
                "content looks binary (too many control characters), not text");
        }
        try {
            String s = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(content)).toString();
            return s.startsWith("\uFEFF") ? s.substring(1) : s;
        } catch (CharacterCodingException e) {
            throw new IngestException(IngestException.Problem.BINARY,
                "content is not valid UTF-8 text (binary file or another encoding)");
        }
    }

    ParsedDocument markdown(String text) {
        List<ParsedDocument.Section> sections = new ArrayList<>();
        String[] path = new String[MAX_HEADING_DEPTH];
        String title = null;
        StringBuilder body = new StringBuilder();
        String heading = "";
        boolean inFence = false;
        for (String line : text.split("\\R", -1)) {
            if (line.trim().startsWith("```")) {
                inFence = !inFence;
                body.append(line).append('\n');
                continue;
            }
            Matcher m = inFence ? null : MD_HEADING.matcher(line);
            if (m != null && m.matches()) {
                flush(sections, heading, body);
                int level = m.group(1).length();
                path[level - 1] = m.group(2).trim();
                for (int i = level; i < MAX_HEADING_DEPTH; i++) {
                    path[i] = null;
                }
                if (title == null && level == 1) {
                    title = path[0];
                }
                heading = joinPath(path);
            } else {
                body.append(line).append('\n');
            }
        }
        flush(sections, heading, body);
        return new ParsedDocument(title, sections);
    }

    ParsedDocument plain(String text) {
        List<ParsedDocument.Section> sections = new ArrayList<>();
        String trimmed = text.strip();
        String title = trimmed.isEmpty() ? null : trimmed.lines().findFirst().map(String::strip).orElse(null);
        if (title != null && title.length() > 80) {
            title = null;
        }
        sections.add(new ParsedDocument.Section("", trimmed));
        return new ParsedDocument(title, sections);
    }

    ParsedDocument html(String html) {
        org.jsoup.nodes.Document doc = Jsoup.parse(html);
        doc.select("script, style, noscript, nav, footer").remove();
        List<ParsedDocument.Section> sections = new ArrayList<>();
        String[] path = new String[MAX_HEADING_DEPTH];
        String heading = "";
        StringBuilder body = new StringBuilder();
        String title = doc.title().isBlank() ? null : doc.title().strip();
        for (Element el : doc.body().select("h1, h2, h3, h4, h5, h6, p, li, td, th, pre, blockquote, dt, dd")) {
            String tag = el.tagName();
            if (tag.length() == 2 && tag.charAt(0) == 'h' && Character.isDigit(tag.charAt(1))) {
                flush(sections, heading, body);
                int level = tag.charAt(1) - '0';
                path[level - 1] = el.text().strip();
                for (int i = level; i < MAX_HEADING_DEPTH; i++) {
                    path[i] = null;
                }
                if (title == null && level == 1) {
                    title = path[0];
                }
                heading = joinPath(path);
            } else if (el.parents().stream().noneMatch(p -> p.tagName().matches("p|li|td|th|pre|blockquote|dd"))) {
                body.append(el.text()).append('\n');
            }
        }
        flush(sections, heading, body);
        if (sections.isEmpty()) {
            sections.add(new ParsedDocument.Section("", doc.body().text()));
        }
        return new ParsedDocument(title, sections);
    }

    ParsedDocument pdf(byte[] content) {
        long deadline = System.nanoTime() + limits.maxParseTime().toNanos();
        try (PDDocument pdf = Loader.loadPDF(content)) {
            measureContent(pdf, deadline);
            LimitedStripper stripper = new LimitedStripper(deadline);
            String text = FORBIDDEN.matcher(stripper.getText(pdf)).replaceAll("");
            String title = pdf.getDocumentInformation() == null ? null : pdf.getDocumentInformation().getTitle();
            if (title != null) {
                title = FORBIDDEN.matcher(title).replaceAll("");
            }
            return new ParsedDocument(title, List.of(new ParsedDocument.Section("", text.strip())));
        } catch (IOException e) {
            throw new IngestException(IngestException.Problem.INVALID, "not a readable PDF");
        }
    }

    /**
     * Decodes every content stream of the pages and their form XObjects once, counting, and refuses the
     * document as soon as the total passes the limit (a decompression bomb costs at most the limit).
     */
    private void measureContent(PDDocument pdf, long deadline) throws IOException {
        long[] total = {0};
        java.util.Set<COSStream> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (PDPage page : pdf.getPages()) {
            for (java.util.Iterator<PDStream> it = page.getContentStreams(); it.hasNext();) {
                count(it.next().getCOSObject(), seen, total, deadline);
            }
            forms(page.getResources(), seen, total, deadline, 0);
        }
    }

    private void forms(PDResources resources, java.util.Set<COSStream> seen, long[] total, long deadline, int depth)
            throws IOException {
        if (resources == null || depth > 10) {
            return;
        }
        for (COSName name : resources.getXObjectNames()) {
            COSBase base = resources.getCOSObject().getCOSDictionary(COSName.XOBJECT) == null ? null
                : resources.getCOSObject().getCOSDictionary(COSName.XOBJECT).getDictionaryObject(name);
            if (base instanceof COSStream stream && COSName.FORM.equals(stream.getCOSName(COSName.SUBTYPE))
                    && count(stream, seen, total, deadline)) {
                forms(new PDResources(stream.getCOSDictionary(COSName.RESOURCES)), seen, total, deadline, depth + 1);
            }
        }
    }

    /** Adds a stream's decoded length to the total; false when it was counted before. */
    private boolean count(COSStream stream, java.util.Set<COSStream> seen, long[] total, long deadline)
            throws IOException {
        if (stream == null || !seen.add(stream)) {
            return false;
        }
        byte[] buffer = new byte[64 * 1024];
        try (java.io.InputStream in = stream.createInputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                total[0] += n;
                if (total[0] > limits.maxDecompressedBytes()) {
                    throw new IngestException(IngestException.Problem.LIMITS_EXCEEDED, "the PDF's content decompresses "
                        + "to more than " + limits.maxDecompressedBytes() / (1024 * 1024) + " MiB, the limit");
                }
                checkDeadline(deadline);
            }
        }
        return true;
    }

    private void checkDeadline(long deadline) {
        if (System.nanoTime() - deadline > 0) {
            throw new IngestException(IngestException.Problem.LIMITS_EXCEEDED,
                "parsing the document took longer than " + limits.maxParseTime().toSeconds() + " s, the limit");
        }
    }

    /** PDF text extraction that stops at the deadline (checked per content operator) and the text limit. */
    private final class LimitedStripper extends PDFTextStripper {
        private final long deadline;
        private long chars;

        LimitedStripper(long deadline) {
            this.deadline = deadline;
        }

        @Override
        protected void processOperator(Operator operator, List<COSBase> operands) throws IOException {
            checkDeadline(deadline);
            super.processOperator(operator, operands);
        }

        @Override
        protected void writeString(String text, List<TextPosition> positions) throws IOException {
            chars += text.length();
            if (chars > limits.maxTextChars()) {
                throw new IngestException(IngestException.Problem.LIMITS_EXCEEDED,
                    "the document holds more than " + limits.maxTextChars() + " characters of text, the limit");
            }
            super.writeString(text, positions);
        }
    }

    private static void flush(List<ParsedDocument.Section> sections, String heading, StringBuilder body) {
        String text = body.toString().strip();
        body.setLength(0);
        if (!text.isEmpty()) {
            sections.add(new ParsedDocument.Section(heading, text));
        }
    }

    private static String joinPath(String[] path) {
        StringBuilder sb = new StringBuilder();
        for (String p : path) {
            if (p != null) {
                if (!sb.isEmpty()) {
                    sb.append(" › ");
                }
                sb.append(p);
            }
        }
        return sb.toString();
    }
}
